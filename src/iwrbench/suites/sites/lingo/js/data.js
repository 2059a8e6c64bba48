/* Parola's decks: Italian words with their English meaning, a pronunciation guide and an example.
   "due" marks the cards a learner has waiting for review today; the rest are already scheduled. */
window.DECKS = [
  { id: "cafe", title: "At the café", blurb: "Order, pay and chat at the bar", colour: "#c2410c", cards: [
    ["il cornetto", "the croissant", "kor-NET-to", "Un cornetto alla crema, per favore.", "A custard croissant, please.", true],
    ["il conto", "the bill", "KON-to", "Possiamo avere il conto?", "Can we have the bill?", true],
    ["lo zucchero", "the sugar", "TSOOK-ke-ro", "Il caffè senza zucchero.", "The coffee without sugar.", true],
    ["la tazza", "the cup", "TAT-tsa", "Una tazza grande di latte.", "A big cup of milk.", true],
    ["il cameriere", "the waiter", "ka-me-RYE-re", "Il cameriere è molto gentile.", "The waiter is very kind.", false],
    ["la spremuta", "the fresh juice", "spre-MOO-ta", "Una spremuta d'arancia.", "A fresh orange juice.", false],
    ["il tavolo", "the table", "TA-vo-lo", "C'è un tavolo libero fuori?", "Is there a free table outside?", false],
    ["lo scontrino", "the receipt", "skon-TREE-no", "Ecco lo scontrino.", "Here is the receipt.", false]
  ]},
  { id: "travel", title: "Getting around", blurb: "Trains, tickets and directions", colour: "#1d4ed8", cards: [
    ["la stazione", "the station", "sta-TSYO-ne", "La stazione è in fondo alla via.", "The station is at the end of the street.", true],
    ["la città", "the city", "cheet-TA", "Bologna è una città antica.", "Bologna is an old city.", true],
    ["il binario", "the platform", "bee-NA-ryo", "Il treno parte dal binario tre.", "The train leaves from platform three.", true],
    ["il biglietto", "the ticket", "beel-YET-to", "Un biglietto per Verona, solo andata.", "A one-way ticket to Verona.", true],
    ["la fermata", "the stop", "fer-MA-ta", "Scendo alla prossima fermata.", "I get off at the next stop.", false],
    ["a destra", "to the right", "a DES-tra", "Giri a destra dopo il ponte.", "Turn right after the bridge.", false],
    ["sempre dritto", "straight ahead", "SEM-pre DREET-to", "Vada sempre dritto.", "Keep going straight ahead.", false],
    ["in ritardo", "late", "een ree-TAR-do", "Il treno è in ritardo di dieci minuti.", "The train is ten minutes late.", false]
  ]},
  { id: "home", title: "Around the house", blurb: "Rooms, furniture and chores", colour: "#7c3aed", cards: [
    ["la cucina", "the kitchen", "koo-CHEE-na", "La cucina è piccola ma luminosa.", "The kitchen is small but bright.", true],
    ["la finestra", "the window", "fee-NES-tra", "Apri la finestra, fa caldo.", "Open the window, it is hot.", false],
    ["la chiave", "the key", "KYA-ve", "Dove ho messo la chiave?", "Where did I put the key?", true],
    ["il divano", "the sofa", "dee-VA-no", "Il gatto dorme sul divano.", "The cat sleeps on the sofa.", false],
    ["il letto", "the bed", "LET-to", "Il letto è già fatto.", "The bed is already made.", false],
    ["lo specchio", "the mirror", "SPEK-kyo", "Lo specchio del bagno è rotto.", "The bathroom mirror is broken.", false]
  ]},
  { id: "time", title: "Days & times", blurb: "Make plans and keep them", colour: "#0f766e", cards: [
    ["domani", "tomorrow", "do-MA-nee", "Ci vediamo domani alle nove.", "See you tomorrow at nine.", false],
    ["la settimana", "the week", "set-tee-MA-na", "La settimana prossima sono in ferie.", "Next week I am on holiday.", false],
    ["il mezzogiorno", "midday", "med-dzo-JOR-no", "Pranziamo a mezzogiorno.", "We have lunch at midday.", false],
    ["presto", "early", "PRES-to", "Domenica mi sveglio presto.", "On Sunday I wake up early.", false],
    ["tardi", "late (in the day)", "TAR-dee", "È tardi, torniamo a casa.", "It is late, let us go home.", false],
    ["sabato", "Saturday", "SA-ba-to", "Sabato andiamo al mare.", "On Saturday we are going to the sea.", false]
  ]}
];
