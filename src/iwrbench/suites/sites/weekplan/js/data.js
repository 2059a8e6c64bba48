/* Rosa Kettleby's calendars at Fernbrook Studio (a small landscape architecture practice): four calendars and
   three weeks of events (date, start and end in minutes from midnight, location, notes). */
window.CALENDARS = [
  { id: "studio", name: "Studio", colour: "#4b4acf" },
  { id: "clients", name: "Clients", colour: "#0f8b8d" },
  { id: "site", name: "Site visits", colour: "#d96a12" },
  { id: "personal", name: "Personal", colour: "#c2417a" }
];
function at(h, m) { return h * 60 + (m || 0); }
window.EVENTS = [
  { d: "2025-05-05", s: at(9), e: at(9, 30), cal: "studio", t: "Studio stand-up", where: "Long table" },
  { d: "2025-05-06", s: at(11), e: at(12, 30), cal: "clients", t: "Orchard Row residents' workshop", where: "Orchard Row community hall" },
  { d: "2025-05-08", s: at(14), e: at(16), cal: "site", t: "Tree survey – Copper Lane school", where: "Copper Lane Primary" },
  { d: "2025-05-09", s: at(16), e: at(17), cal: "personal", t: "Physio", where: "Bellgate Clinic" },

  { d: "2025-05-12", s: at(9), e: at(9, 30), cal: "studio", t: "Studio stand-up", where: "Long table" },
  { d: "2025-05-12", s: at(10), e: at(11, 30), cal: "clients", t: "Harbour & Co – planting plan review", where: "Call: meet.harbourco.example/rk", notes: "Bring the revised birch and hornbeam mix." },
  { d: "2025-05-12", s: at(13, 30), e: at(15), cal: "studio", t: "Drawings: Weaver's Yard sections", where: "Desk 4" },
  { d: "2025-05-13", s: at(8, 30), e: at(12), cal: "site", t: "Site visit – Weaver's Yard", where: "Weaver's Yard, Kiln Street", notes: "Hard hats and boots. Meet Tomasz at the gate." },
  { d: "2025-05-13", s: at(14), e: at(15), cal: "clients", t: "Call with Marsh Council parks team", where: "Phone" },
  { d: "2025-05-14", s: at(9), e: at(9, 30), cal: "studio", t: "Studio stand-up", where: "Long table" },
  { d: "2025-05-14", s: at(11), e: at(12), cal: "studio", t: "Planting palette crit", where: "Meeting room 2", notes: "Priya and Dev present the shade garden options." },
  { d: "2025-05-14", s: at(13), e: at(14), cal: "personal", t: "Lunch with Imogen", where: "The Copper Kettle" },
  { d: "2025-05-14", s: at(15), e: at(17), cal: "clients", t: "Fieldgate Housing – concept presentation", where: "Fieldgate offices, 3rd floor", notes: "Print six A3 sets." },
  { d: "2025-05-15", s: at(10), e: at(12, 30), cal: "studio", t: "Weaver's Yard planting schedule", where: "Desk 4" },
  { d: "2025-05-15", s: at(14), e: at(15, 30), cal: "site", t: "Soil samples – Orchard Row", where: "Orchard Row green" },
  { d: "2025-05-16", s: at(9), e: at(9, 30), cal: "studio", t: "Studio stand-up", where: "Long table" },
  { d: "2025-05-16", s: at(12), e: at(13), cal: "studio", t: "Friday show & tell", where: "Kitchen" },
  { d: "2025-05-16", s: at(16), e: at(17), cal: "personal", t: "Physio", where: "Bellgate Clinic" },
  { d: "2025-05-17", s: at(10), e: at(12), cal: "personal", t: "Allotment – sow beans", where: "Plot 14, Hanger Lane" },

  { d: "2025-05-19", s: at(9), e: at(9, 30), cal: "studio", t: "Studio stand-up", where: "Long table" },
  { d: "2025-05-19", s: at(13), e: at(17), cal: "site", t: "Planting day – Copper Lane school", where: "Copper Lane Primary", notes: "Forty whips and two standard oaks; the school's eco club helps from 14:00." },
  { d: "2025-05-20", s: at(10), e: at(11), cal: "clients", t: "Harbour & Co – sign-off", where: "Harbour & Co, Quay Street" },
  { d: "2025-05-21", s: at(9), e: at(9, 30), cal: "studio", t: "Studio stand-up", where: "Long table" },
  { d: "2025-05-22", s: at(11), e: at(12, 30), cal: "studio", t: "Tender drawings check", where: "Meeting room 2" },
  { d: "2025-05-23", s: at(15), e: at(18), cal: "personal", t: "Train to Aldbury", where: "Central station, platform 6" }
];
