/* Keystead data: the homes for sale in Port Averley (a made-up city) and its street graph. The
   same graph draws the map and answers the commute question, so a route on screen is the route
   that was measured. Coordinates are map units (1 unit = 6 m). */
window.KS = (function () {
  "use strict";
  var nodes = {
    A1: [120, 200], A2: [260, 170], A3: [400, 150], A4: [560, 130], A5: [720, 110], A6: [880, 100],
    B1: [120, 330], B2: [260, 320], B3: [400, 300], B4: [560, 290], B5: [720, 270], B6: [880, 260],
    C1: [140, 470], C2: [280, 480], C3: [420, 455], C4: [560, 440], C5: [720, 425], C6: [880, 420],
    D1: [160, 610], D2: [300, 620], D3: [440, 600], D4: [580, 590], D5: [720, 585], D6: [880, 580]
  };
  // [from, to, street, kind]: road (everyone), path (walk and bike), ring (cars only)
  var edges = [
    ["A1", "A2", "Castle Walk", "road"], ["A2", "A3", "Keep Street", "road"], ["A3", "A4", "Northgate Road", "road"],
    ["A4", "A5", "Northgate Road", "road"], ["A5", "A6", "Averley Ring", "ring"],
    ["B1", "B2", "Quay Street", "road"], ["B2", "B3", "Quay Street", "road"], ["B3", "B4", "Station Parade", "road"],
    ["B4", "B5", "Sill Embankment", "road"], ["B5", "B6", "Sill Embankment", "road"],
    ["C1", "C2", "Mill Road", "road"], ["C2", "C3", "Mill Road", "road"], ["C3", "C4", "Riverside Drive", "road"],
    ["C4", "C5", "Riverside Drive", "road"], ["C5", "C6", "Infirmary Lane", "road"],
    ["D1", "D2", "Brook Lane", "road"], ["D2", "D3", "Brook Lane", "road"], ["D3", "D4", "Fenwick Avenue", "road"],
    ["D4", "D5", "Fenwick Avenue", "road"], ["D5", "D6", "Commerce Way", "road"],
    ["A1", "B1", "Harbour Hill", "road"], ["A2", "B2", "Castle Street", "road"], ["A3", "B3", "Station Road", "road"],
    ["A4", "B4", "Tannery Lane", "road"], ["A5", "B5", "Market Street", "road"], ["A6", "B6", "Averley Ring", "ring"],
    ["B1", "C1", "Quay Bridge", "road"], ["B3", "C3", "Mill Bridge", "road"], ["B4", "C4", "Sill Footbridge", "path"],
    ["B6", "C6", "Averley Ring", "ring"],
    ["C1", "D1", "Millbrook Row", "road"], ["C2", "D2", "Green Lane", "road"], ["C3", "D3", "Orchard Street", "road"],
    ["C4", "D4", "Park Road", "road"], ["C5", "D5", "Hospital Road", "road"], ["C6", "D6", "Averley Ring", "ring"],
    ["A2", "B3", "Castle Hill Steps", "path"], ["C4", "D5", "Fenwick Park Path", "path"]
  ];
  var places = {
    station: { name: "Central Station", node: "B3", icon: "train" },
    university: { name: "Averley University", node: "A4", icon: "cap" },
    hospital: { name: "St Brigid's Hospital", node: "C5", icon: "cross" },
    business: { name: "Fenwick Business Park", node: "D6", icon: "briefcase" }
  };
  var areas = [
    { name: "Castle Hill", x: 250, y: 95 }, { name: "Northgate", x: 800, y: 170 }, { name: "Old Harbour", x: 180, y: 262 },
    { name: "Riverside", x: 500, y: 395 }, { name: "Millbrook", x: 240, y: 552 }, { name: "Fenwick Park", x: 660, y: 650 }
  ];
  // id, title, type, beds, baths, m2, price, address, area, node, x, y, garden, epc, built, days, agent
  var rows = [
    ["kh-101", "Victorian terrace with a walled garden", "House", 3, 2, 118, 465000, "14 Tannery Lane", "Riverside", "B4", 560, 220, true, "C", 1894, 3, "Harbour & Hill"],
    ["kh-102", "Harbour-view flat with balcony", "Flat", 2, 1, 74, 329000, "Flat 6, 2 Quay Street", "Old Harbour", "B2", 215, 320, false, "B", 2008, 12, "Quayside Homes"],
    ["kh-103", "Castle Hill townhouse", "Townhouse", 4, 3, 156, 612000, "9 Keep Street", "Castle Hill", "A2", 330, 160, true, "C", 1912, 21, "Harbour & Hill"],
    ["kh-104", "Studio by Central Station", "Flat", 1, 1, 38, 189000, "Apt 31, 5 Station Parade", "Old Harbour", "B3", 455, 295, false, "B", 2016, 1, "Quayside Homes"],
    ["kh-105", "Semi-detached family home", "House", 4, 2, 142, 498000, "27 Green Lane", "Millbrook", "C2", 280, 545, true, "D", 1968, 30, "Brookfield Estates"],
    ["kh-106", "Loft in the old mill", "Flat", 2, 2, 96, 388000, "Loft 4, Mill Road Works", "Millbrook", "C2", 345, 470, false, "C", 1921, 8, "Brookfield Estates"],
    ["kh-107", "Cottage near Millbrook Green", "House", 2, 1, 81, 296000, "3 Brook Lane", "Millbrook", "D1", 205, 615, true, "E", 1880, 45, "Brookfield Estates"],
    ["kh-108", "New-build flat on Riverside Drive", "Flat", 2, 2, 79, 352000, "Flat 12, 40 Riverside Drive", "Riverside", "C4", 615, 432, false, "A", 2023, 5, "Harbour & Hill"],
    ["kh-109", "Northgate Market apartment", "Flat", 3, 2, 102, 415000, "Apt 8, 1 Market Street", "Northgate", "A5", 720, 160, false, "B", 2012, 16, "Northgate Lettings & Sales"],
    ["kh-110", "Detached house on Fenwick Avenue", "House", 5, 3, 210, 745000, "88 Fenwick Avenue", "Fenwick Park", "D4", 640, 590, true, "B", 2004, 60, "Harbour & Hill"],
    ["kh-111", "Garden flat by the park", "Flat", 2, 1, 70, 278000, "Ground floor, 15 Park Road", "Fenwick Park", "D4", 560, 530, true, "C", 1930, 9, "Northgate Lettings & Sales"],
    ["kh-112", "Mews house off Castle Street", "Townhouse", 3, 2, 110, 529000, "2 Castle Mews", "Castle Hill", "A2", 260, 235, false, "C", 1850, 14, "Harbour & Hill"],
    ["kh-113", "Two-bed house on Hospital Road", "House", 2, 1, 76, 268000, "61 Hospital Road", "Fenwick Park", "C5", 720, 500, true, "D", 1955, 27, "Northgate Lettings & Sales"],
    ["kh-114", "Top-floor flat on the embankment", "Flat", 1, 1, 52, 241000, "Flat 9, 70 Sill Embankment", "Northgate", "B5", 800, 265, false, "C", 1998, 6, "Quayside Homes"],
    ["kh-115", "Orchard Street townhouse", "Townhouse", 3, 2, 124, 437000, "5 Orchard Street", "Millbrook", "D3", 430, 540, true, "B", 2015, 19, "Brookfield Estates"],
    ["kh-116", "Penthouse on Commerce Way", "Flat", 3, 2, 128, 560000, "Penthouse, 10 Commerce Way", "Fenwick Park", "D6", 815, 580, false, "A", 2021, 2, "Quayside Homes"],
    ["kh-117", "Fisherman's cottage", "House", 2, 1, 64, 259000, "7 Harbour Hill", "Old Harbour", "A1", 120, 265, true, "E", 1860, 33, "Quayside Homes"],
    ["kh-118", "Northgate family semi", "House", 3, 1, 105, 389000, "44 Northgate Road", "Northgate", "A4", 640, 120, true, "D", 1972, 11, "Northgate Lettings & Sales"]
  ];
  var homes = rows.map(function (r) {
    return { id: r[0], title: r[1], type: r[2], beds: r[3], baths: r[4], m2: r[5], price: r[6], address: r[7], area: r[8],
      node: r[9], x: r[10], y: r[11], garden: r[12], epc: r[13], built: r[14], days: r[15], agent: r[16] };
  });
  var blurbs = {
    "Castle Hill": "Steep streets of Georgian and Victorian houses under the castle walls, five minutes from the station by the Castle Hill Steps.",
    "Northgate": "The market quarter: the Saturday food market, the university on Northgate Road and quick access to the Averley Ring.",
    "Old Harbour": "Former warehouses and fishermen's cottages along Quay Street; the ferry terminal and Central Station are both close.",
    "Riverside": "Newer flats and Victorian terraces on both banks of the Sill, joined by the footbridge.",
    "Millbrook": "Family houses around Millbrook Green, two primary schools and the converted mill on Mill Road.",
    "Fenwick Park": "Quiet avenues around the city's largest park, St Brigid's Hospital and the business park."
  };
  return { nodes: nodes, edges: edges, places: places, areas: areas, homes: homes, blurbs: blurbs };
})();
