/* The council's register, as the permit service would read it: zones, the postcodes in them, and how many
   resident permits each address already holds. */
window.PERMIT_DATA = {
  zones: {
    A: { name: "Old Town", colour: "#b5793a", factor: 1.25, hours: "Monday to Saturday, 8am to 8pm" },
    B: { name: "Quayside", colour: "#2f7f8f", factor: 1.10, hours: "every day, 9am to 6pm" },
    C: { name: "Harwick", colour: "#5a8a46", factor: 1.00, hours: "Monday to Saturday, 8am to 6:30pm" },
    D: { name: "St Bride's", colour: "#8a4f7a", factor: 1.00, hours: "Monday to Friday, 10am to 2pm" }
  },
  postcodes: {
    "MB1 3AX": { zone: "A", addresses: [["Flat 2, 7 Cooper's Yard", 0], ["Flat 3, 7 Cooper's Yard", 1], ["9 Cooper's Yard", 0], ["11 Cooper's Yard", 2]] },
    "MB1 4DR": { zone: "A", addresses: [["1 Tanners Lane", 1], ["3 Tanners Lane", 0], ["The Mews House, Tanners Lane", 0]] },
    "MB2 6HW": { zone: "B", addresses: [["21 Lantern Quay", 0], ["23 Lantern Quay", 1], ["25 Lantern Quay", 0], ["Apartment 4, Ropewalk House", 2]] },
    "MB4 2QT": { zone: "C", addresses: [["12 Ferrier Row", 0], ["14 Ferrier Row", 0], ["16 Ferrier Row", 1], ["18 Ferrier Row", 2], ["The Old Forge, Ferrier Row", 0]] },
    "MB4 2QU": { zone: "C", addresses: [["2 Wicket Gardens", 0], ["4 Wicket Gardens", 1], ["6 Wicket Gardens", 0]] },
    "MB5 1JN": { zone: "D", addresses: [["3 Chantry Close", 0], ["5 Chantry Close", 0], ["7 Chantry Close", 1]] }
  },
  /* postcodes of Marrowby outside the zones (any other MB postcode is treated the same) */
  outside: { "MB9 7LD": "Upper Fellside", "MB7 4EE": "Kelling Moor", "MB6 2PA": "Ashcombe" },
  bands: [
    { band: "A", max: 0, label: "Electric (0 g/km)", price: 24 },
    { band: "B", max: 110, label: "1 to 110 g/km", price: 72 },
    { band: "C", max: 150, label: "111 to 150 g/km", price: 108 },
    { band: "D", max: 185, label: "151 to 185 g/km", price: 146 },
    { band: "E", max: 225, label: "186 to 225 g/km", price: 188 },
    { band: "F", max: 9999, label: "over 225 g/km", price: 236 }
  ],
  dieselSupplement: 40,
  lengthShare: { 3: 0.30, 6: 0.55, 12: 1.00 }
};
