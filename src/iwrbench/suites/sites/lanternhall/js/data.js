/* Lanternhall Cinema: films, prices and the weekly timetable (all made up). Which seats are
   already sold is worked out from the showing's id, so every visitor sees the same house. */
window.LH = {
  prices: { adult: 12.5, child: 8, senior: 9.5, recliner: 4, fee: 0.95 },
  promo: { LANTERN10: { label: "Members' 10% off tickets", off: 0.1 } },
  films: [
    { id: "salt-road", title: "The Salt Road", cert: "12A", mins: 124, genre: "Drama", family: false, colours: ["#c96b3c", "#f1d9a7", "#3b2a22"],
      director: "Ines Karlsson", cast: "Moa Lindqvist, Daniel Osei, Hana Ruiz",
      blurb: "Two estranged sisters drive their late father's salt lorry across the Camargue to deliver one last load.",
      times: ["12:40", "15:30", "18:20", "20:50"] },
    { id: "paper-moons", title: "Paper Moons", cert: "PG", mins: 98, genre: "Animation", family: true, colours: ["#2f4f8f", "#f5e6a8", "#e7a3b8"],
      director: "Theo Marchetti", cast: "Voices of Aoife Brennan, Kwame Asante, Lily Park",
      blurb: "A girl who folds paper animals finds that the moon she cut out for a school play won't stay on the stage.",
      times: ["10:30", "13:00", "15:15"] },
    { id: "night-ferry", title: "Night Ferry to Ostend", cert: "15", mins: 112, genre: "Thriller", family: false, colours: ["#0e1f33", "#5fb3c9", "#e8e2c4"],
      director: "Rutger Vos", cast: "Femke de Wit, Callum Reid, Sasha Petrov",
      blurb: "A purser on the last overnight crossing has seven hours to work out which passenger is not who they say.",
      times: ["14:10", "17:45", "19:45", "21:30"] },
    { id: "ultramarine", title: "Ultramarine", cert: "12A", mins: 87, genre: "Documentary", family: false, colours: ["#123a6b", "#2e86c1", "#f4f1e8"],
      director: "Nadia Farouk", cast: "",
      blurb: "The last family making lapis pigment by hand, and the painters who still wait a year for a jar of it.",
      times: ["11:15", "16:40"] },
    { id: "long-quiet", title: "The Long Quiet", cert: "12A", mins: 136, genre: "Science fiction", family: false, colours: ["#1b1430", "#8a6fd1", "#f2b544"],
      director: "Eleanor Achebe", cast: "Jonas Meyer, Priya Raman, Tom Callaghan",
      blurb: "Radio astronomers pick up a signal that repeats every 41 minutes and then, one night, stops.",
      times: ["13:20", "17:10", "20:15"] },
    { id: "sugar-street", title: "Sugar Street Revue", cert: "PG", mins: 105, genre: "Musical", family: true, colours: ["#b8325a", "#f7c948", "#2b1b2f"],
      director: "Marisol Duarte", cast: "Zoe Hartley, Benny Adeyemi, Rosa Kline",
      blurb: "A failing seaside variety theatre puts on one last summer show, and the whole street ends up in it.",
      times: ["11:00", "14:30", "18:00"] }
  ],
  screens: ["Screen 1", "Screen 2", "Screen 3"]
};
