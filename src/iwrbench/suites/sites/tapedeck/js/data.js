/* Tapedeck library and the tape being made (songs and artists are made up). Durations in seconds. */
window.TD = {
  songs: [
    ["s01", "Harbour Lights at 4 A.M.", "Pale Estuary", "Low Tide Radio", 252],
    ["s02", "Rain on the Tin Roof", "The Marram Grass", "Shelter Belt", 221],
    ["s03", "Paper Aeroplane Summer", "Kit & the Kestrels", "Fledgling", 185],
    ["s04", "Slow Tram to Nowhere", "Odile Fontaine", "Correspondances", 327],
    ["s05", "Copper Kettle", "The Marram Grass", "Shelter Belt", 178],
    ["s06", "Neon Laundrette", "Vanta Boulevard", "Spin Cycle", 276],
    ["s07", "Lighthouse Keeper's Daughter", "Mara Stills", "Fieldnotes", 229],
    ["s08", "Rainmaker (Live at the Corn Exchange)", "Delphine Achterberg", "Live in Ely", 362],
    ["s09", "Soft Machinery", "Vanta Boulevard", "Spin Cycle", 213],
    ["s10", "Wild Garlic", "Kit & the Kestrels", "Fledgling", 167],
    ["s11", "Tidewater", "Pale Estuary", "Low Tide Radio", 295],
    ["s12", "The Last Ferry Out", "Odile Fontaine", "Correspondances", 258],
    ["s13", "Static & Honey", "Juno Wray", "Signal Fires", 194],
    ["s14", "Fieldnotes", "Mara Stills", "Fieldnotes", 310],
    ["s15", "Orange Peel Sunday", "Juno Wray", "Signal Fires", 206],
    ["s16", "Swimming in the Reservoir", "Pale Estuary", "Low Tide Radio", 280]
  ].map(function (r) { return { id: r[0], title: r[1], artist: r[2], album: r[3], secs: r[4] }; }),
  tape: { title: "Late Train Home", shell: "smoke", gap: 2, a: ["s01", "s04", "s06", "s13"], b: ["s11", "s07", "s12"] },
  shells: { smoke: ["#3b3f4a", "Smoke"], mint: ["#8fd3b6", "Mint"], tangerine: ["#ff8a4c", "Tangerine"], cobalt: ["#3056d3", "Cobalt"] },
  SIDE_SECS: 45 * 60
};
