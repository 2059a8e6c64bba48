/* Port Halloran's rail network: stations (map position, fare zone, label side), lines (stations in order with
   the corners of the schematic between them, minutes per hop, headway, first departure), fares and the
   planned works. The planner reads only this. */
window.NETWORK = {
  stations: {
    wf: { name: "Westferry", x: 100, y: 320, zone: 3, label: "s" },
    ml: { name: "Mill Lane", x: 180, y: 320, zone: 2, label: "s" },
    ch: { name: "Custom House", x: 260, y: 320, zone: 1, label: "nw" },
    gh: { name: "Guildhall", x: 370, y: 320, zone: 1, label: "s" },
    ce: { name: "Central", x: 480, y: 320, zone: 1, label: "sw" },
    ms: { name: "Market Square", x: 590, y: 320, zone: 1, label: "s" },
    qs: { name: "Quayside", x: 700, y: 320, zone: 1, label: "e2" },
    sm: { name: "Saltmarsh", x: 800, y: 320, zone: 2, label: "s" },
    hp: { name: "Harbour Point", x: 890, y: 320, zone: 3, label: "n" },
    ng: { name: "Northgate", x: 480, y: 50, zone: 2, label: "e" },
    km: { name: "Kingsmead", x: 480, y: 140, zone: 1, label: "n2" },
    un: { name: "University", x: 480, y: 230, zone: 1, label: "w" },
    fr: { name: "Foundry Road", x: 480, y: 410, zone: 1, label: "e" },
    sb: { name: "Southbank", x: 480, y: 500, zone: 1, label: "s2" },
    fh: { name: "Fernhill", x: 480, y: 590, zone: 2, label: "e" },
    ob: { name: "Observatory", x: 340, y: 140, zone: 1, label: "n" },
    lh: { name: "Linden Hill", x: 620, y: 140, zone: 1, label: "n" },
    dn: { name: "Docklands North", x: 700, y: 230, zone: 1, label: "e" },
    bw: { name: "Brewery Wharf", x: 700, y: 410, zone: 1, label: "e" },
    cn: { name: "Cannery", x: 620, y: 500, zone: 1, label: "s" },
    rw: { name: "Ropewalk", x: 340, y: 500, zone: 1, label: "s" },
    om: { name: "Old Mint", x: 260, y: 410, zone: 1, label: "w" },
    ap: { name: "Ashby Park", x: 260, y: 230, zone: 1, label: "w" },
    ax: { name: "Airport", x: 870, y: 60, zone: 3, label: "s" }
  },
  lines: [
    { id: "H", name: "Harbour Line", short: "Harbour", colour: "#d7263d", headway: 6, first: [0, 3],
      ends: ["Harbour Point", "Westferry"],
      path: ["wf", "ml", "ch", "gh", "ce", "ms", "qs", "sm", "hp"], mins: [3, 3, 2, 2, 2, 2, 3, 3] },
    { id: "C", name: "Crosstown Line", short: "Crosstown", colour: "#1f6fd1", headway: 5, first: [1, 2],
      ends: ["Fernhill", "Northgate"],
      path: ["ng", "km", "un", "ce", "fr", "sb", "fh"], mins: [3, 2, 2, 2, 2, 3] },
    { id: "R", name: "Circle Line", short: "Circle", colour: "#f2b705", headway: 8, first: [0, 4], loop: true,
      ends: ["clockwise", "anticlockwise"],
      path: ["ob", "km", "lh", [640, 140], [700, 200], "dn", "qs", "bw", [700, 440], [640, 500], "cn", "sb", "rw", [320, 500], [260, 440], "om", "ch", "ap", [260, 200], [320, 140], "ob"],
      mins: [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3] },
    { id: "X", name: "Airport Express", short: "Express", colour: "#6c3fb5", headway: 15, first: [5, 0],
      ends: ["Airport", "Central"],
      path: ["ce", [570, 230], "dn", "ax"], mins: [4, 9] }
  ],
  change: 3,
  fares: {
    zones: { 1: [2.40, 1.80], 2: [3.20, 2.50], 3: [4.10, 3.10] },
    express: 4.50,
    peak: [[7 * 60, 9 * 60 + 30], [16 * 60 + 30, 19 * 60]]
  },
  passengers: { Adult: "full fare", "Child (5-15)": "half fare", "Senior (60+)": "free off-peak, half fare at peak" },
  status: [
    { line: "H", state: "Good service", level: "good", text: "Trains every 6 minutes from 05:30 to 00:30." },
    { line: "C", state: "Minor delays", level: "minor", text: "A faulty signal at Foundry Road: allow 5 more minutes. Trains still run every 5 minutes." },
    { line: "R", state: "Part closed this weekend", level: "works", text: "Saturday 19 and Sunday 20 April: no trains between Old Mint and Ropewalk while the Cannery Street bridge is repainted. The rest of the Circle runs as usual." },
    { line: "X", state: "Good service", level: "good", text: "Every 15 minutes. A £4.50 supplement applies on top of the zone fare." }
  ],
  /* hops closed on weekend days (day index 5 and 6 of the week shown) */
  closures: [{ line: "R", between: ["om", "rw"], days: [5, 6] }]
};
