/* Murmur seed data: people, posts and notifications of a small neighbourhood network (all made up).
   Times are absolute; the page shows them relative to its clock (the recipes freeze it). */
window.MM = {
  me: { name: "Sam Rivera", handle: "samrivera", colour: "#6d28d9", bio: "Cycling to work, baking on Sundays. Hollis Park.", followers: 214, following: 180 },
  people: {
    tomas: { name: "Tomás Okafor", handle: "tomas.bakes", colour: "#c2410c" },
    lena: { name: "Lena Vogt", handle: "lenav", colour: "#0f766e" },
    priya: { name: "Priyanka Das", handle: "priyanka_builds", colour: "#be185d" },
    marcus: { name: "Marcus Bell", handle: "marcusbell", colour: "#1d4ed8" },
    library: { name: "Hollis Park Library", handle: "hollisparklib", colour: "#4d7c0f", org: true },
    june: { name: "June Tan", handle: "junetan", colour: "#a16207" },
    rafa: { name: "Rafael Mendes", handle: "rafa_m", colour: "#7c2d12" },
    cycle: { name: "Riverside Cycle Co-op", handle: "rivercycles", colour: "#0369a1", org: true }
  },
  posts: [
    { id: "p1", by: "tomas", at: "2025-03-14T15:52:00Z", following: true, likes: 48, reposts: 6, image: "loaf",
      text: "Fourth attempt at a rye sourdough and it finally has an open crumb. The trick was a colder, longer proof: 14 hours in the fridge.",
      replies: [{ by: "june", at: "2025-03-14T16:01:00Z", text: "That crust! Are you selling these at the Saturday market?" },
        { by: "tomas", at: "2025-03-14T16:05:00Z", text: "@junetan Two dozen loaves this Saturday, stall 12 by the fountain." }] },
    { id: "p2", by: "library", at: "2025-03-14T14:30:00Z", following: false, likes: 112, reposts: 31,
      text: "The seed library is open again for spring! Bring a packet, take a packet. Tomatoes, beans and six kinds of basil on the shelf this week.",
      replies: [{ by: "lena", at: "2025-03-14T14:48:00Z", text: "Dropping off sunflower seeds from last summer tomorrow." }] },
    { id: "p3", by: "lena", at: "2025-03-14T12:10:00Z", following: true, likes: 23, reposts: 2,
      text: "Counted 41 cyclists on the Mill Road bridge between 8 and 8:15 this morning. Last March it was 19. The new lane is working.",
      replies: [{ by: "cycle", at: "2025-03-14T12:40:00Z", text: "We'd love that data for the council meeting on the 20th!" },
        { by: "marcus", at: "2025-03-14T13:02:00Z", text: "Was one of the 41. It feels a lot safer now." },
        { by: "lena", at: "2025-03-14T13:15:00Z", text: "@rivercycles I'll send the spreadsheet tonight." }] },
    { id: "p4", by: "priya", at: "2025-03-14T09:45:00Z", following: true, likes: 67, reposts: 9, image: "shelf",
      text: "Weekend project done: a bookshelf from the old scaffold boards behind the community hall. Total cost: one tin of oil and a lot of sanding.",
      replies: [] },
    { id: "p5", by: "cycle", at: "2025-03-13T18:20:00Z", following: false, likes: 35, reposts: 14,
      text: "Free bike check-ups this Sunday 10:00–14:00 outside the station. Brakes, chains, lights. No booking needed.",
      replies: [{ by: "rafa", at: "2025-03-13T19:00:00Z", text: "Will you have spare inner tubes?" }] },
    { id: "p6", by: "marcus", at: "2025-03-13T16:05:00Z", following: true, likes: 9, reposts: 0,
      text: "Does anyone know why the number 7 bus skipped Hollis Park all afternoon? Waited 40 minutes before walking.",
      replies: [{ by: "june", at: "2025-03-13T16:30:00Z", text: "Roadworks on Quarry Lane, it's diverted until Friday." }] },
    { id: "p7", by: "june", at: "2025-03-13T11:30:00Z", following: true, likes: 88, reposts: 12, image: "mural",
      text: "The new mural on the laundrette wall is finished. Three weeks, eleven volunteers, forty litres of paint.",
      replies: [] },
    { id: "p8", by: "rafa", at: "2025-03-12T20:15:00Z", following: false, likes: 15, reposts: 1,
      text: "Quiz night at the Ferryman on Thursday. Our team name is 'Quizteama Aguilera' and we are accepting no criticism.",
      replies: [] }
  ],
  notes: [
    { id: "n1", kind: "like", who: ["lena", "marcus"], post: "p3", at: "2025-03-14T15:40:00Z", text: "liked your reply", unread: true },
    { id: "n2", kind: "mention", who: ["tomas"], post: "p1", at: "2025-03-14T15:55:00Z", text: "mentioned you: “@samrivera saved you the end slice, come by before six.”", unread: true },
    { id: "n3", kind: "follow", who: ["priya"], at: "2025-03-14T10:02:00Z", text: "followed you", unread: true },
    { id: "n4", kind: "repost", who: ["cycle"], post: "p5", at: "2025-03-13T18:30:00Z", text: "reposted your post", unread: false },
    { id: "n5", kind: "mention", who: ["june"], post: "p7", at: "2025-03-13T11:45:00Z", text: "mentioned you: “thanks @samrivera for lending the ladders!”", unread: false }
  ]
};
