/* Saltbox Coffee's spring menu launch: five columns (In progress limited to three cards), labels, the team and
   the cards with their checklists. */
window.BOARD = {
  me: "ML",
  people: { JP: ["Jonah Pryce", "#6c5ce7"], ML: ["Mei Lindqvist", "#00a383"], SO: ["Sam Okafor", "#e17055"], AF: ["Ada Ferreira", "#0984e3"] },
  labels: { menu: ["Menu", "#f0a500"], design: ["Design", "#6c5ce7"], supplier: ["Supplier", "#00a383"], social: ["Social", "#e84393"], ops: ["Ops", "#636e72"] },
  columns: [
    { id: "backlog", name: "Backlog" },
    { id: "todo", name: "To do" },
    { id: "doing", name: "In progress", limit: 3 },
    { id: "review", name: "Review" },
    { id: "done", name: "Done" }
  ],
  cards: [
    { col: "backlog", t: "Oat milk tasting with two new suppliers", labels: ["supplier"], who: "SO", due: "28 Mar", desc: "Blind-taste Northfield and Greenhollow barista oat against our current carton.", items: [["Book the tasting table", 0], ["Order samples", 0]] },
    { col: "backlog", t: "Loyalty card stamp for the spring drinks", labels: ["design"], who: "AF", due: "4 Apr", desc: "A cherry blossom stamp, one colour, 18 mm.", items: [] },
    { col: "backlog", t: "Staff playlist for the launch weekend", labels: ["ops"], who: "JP", due: "", desc: "Two hours, nothing with lyrics before 10:00.", items: [] },
    { col: "todo", t: "Write tasting notes for the rhubarb cold brew", labels: ["menu"], who: "ML", due: "21 Mar", desc: "Forty words for the board and twelve for the menu card.", items: [["Board version", 0], ["Menu card version", 0], ["Allergen line", 0]] },
    { col: "todo", t: "Instagram teaser: three stories", labels: ["social", "design"], who: "AF", due: "24 Mar", desc: "Steam shots of the honey lavender latte, shot at the Harbour Street shop.", items: [["Shot list", 1], ["Shoot", 0], ["Captions", 0]] },
    { col: "todo", t: "Price the spring menu", labels: ["menu", "ops"], who: "JP", due: "19 Mar", desc: "Keep the cold brew under £4.20; cost sheets are in the shared drive.", items: [["Cost each drink", 1], ["Check against Brewhouse and Kiln", 0]] },
    { col: "doing", t: "Honey lavender latte recipe", labels: ["menu"], who: "ML", due: "18 Mar", desc: "Settle the syrup ratio. Current favourite: 12 ml syrup to 200 ml milk.", items: [["Make the syrup", 1], ["Test 10 ml, 12 ml, 15 ml", 1], ["Staff tasting", 0], ["Write the build card", 0], ["Photograph the build", 0]] },
    { col: "doing", t: "Chalkboard artwork for both shops", labels: ["design"], who: "AF", due: "20 Mar", desc: "Harbour Street and Mill Yard boards, same layout.", items: [["Sketch", 1], ["Harbour Street board", 0], ["Mill Yard board", 0]] },
    { col: "doing", t: "Reorder 12 oz cups with the new print", labels: ["supplier", "ops"], who: "SO", due: "17 Mar", desc: "2,000 cups; Packwell quoted £212 with the spring print.", items: [["Approve proof", 1], ["Place order", 0]] },
    { col: "review", t: "Spring menu card layout", labels: ["design", "menu"], who: "AF", due: "16 Mar", desc: "A5, two sides. Waiting on prices.", items: [["Layout", 1], ["Proofread", 1], ["Prices in", 0]] },
    { col: "done", t: "Pick the three spring drinks", labels: ["menu"], who: "ML", due: "7 Mar", desc: "Honey lavender latte, rhubarb cold brew, pistachio flat white.", items: [["Shortlist", 1], ["Vote", 1]] },
    { col: "done", t: "Book the launch weekend rota", labels: ["ops"], who: "JP", due: "10 Mar", desc: "Saturday 29 and Sunday 30 March, both shops.", items: [] }
  ]
};
