/* Stride's training log for one member, Maya Lindgren: her workouts since mid-April 2025
   [date, type, minutes, km (null when not measured), effort 1-10, note], her daily resting heart
   rate and weight for thirty days, and today's food. All of it written for this site. */
window.STRIDE = {
  member: { name: "Maya Lindgren", initials: "ML", goalMinutes: 240, weightKg: 63 },
  workouts: [
    ["2025-04-15", "Run", 42, 7.6, 5, "Canal towpath, easy"],
    ["2025-04-17", "Yoga", 45, null, 3, "Evening flow class"],
    ["2025-04-20", "Ride", 120, 48.0, 6, "Club ride to Ashcombe and back"],
    ["2025-04-22", "Run", 45, 8.1, 6, "Progression, last 2 km fast"],
    ["2025-04-24", "Swim", 40, 1.8, 5, "Technique drills"],
    ["2025-04-27", "Run", 70, 12.8, 6, "Long run, hilly"],
    ["2025-04-29", "Ride", 60, 24.0, 5, "Turbo trainer, zone 2"],
    ["2025-05-01", "Strength", 40, null, 7, "Deadlifts and split squats"],
    ["2025-05-03", "Run", 92, 16.5, 7, "Long run with the club"],
    ["2025-05-05", "Run", 35, 6.2, 4, "Recovery jog"],
    ["2025-05-06", "Swim", 45, 2.0, 6, "Pull buoy sets"],
    ["2025-05-07", "Yoga", 30, null, 3, "Mobility"],
    ["2025-05-08", "Run", 48, 9.0, 7, "Tempo 3 × 2 km"],
    ["2025-05-10", "Ride", 95, 38.4, 6, "Hills out to Highfield"],
    ["2025-05-12", "Run", 40, 7.1, 5, "Easy loop round the reservoir"],
    ["2025-05-14", "Strength", 35, null, 6, "Legs and core"]
  ],
  restingHr: [58, 58, 57, 59, 58, 57, 57, 56, 58, 57, 56, 56, 55, 57, 56, 55, 55, 56, 54, 55, 55, 54, 56, 55, 54, 53, 54, 54, 53, 54],
  weight: [64.2, 64.1, 64.3, 64.0, 63.9, 64.0, 63.8, 63.9, 63.7, 63.8, 63.6, 63.7, 63.5, 63.6, 63.6, 63.4, 63.5, 63.3, 63.4, 63.2, 63.3, 63.1, 63.2, 63.2, 63.0, 63.1, 62.9, 63.0, 62.9, 62.8],
  food: { kcal: [1640, 2300], protein: [96, 130], carbs: [182, 260], fat: [54, 75], water: [5, 8],
          meals: [["Breakfast", "Porridge with berries and walnuts", 420], ["Lunch", "Chicken and lentil salad", 560], ["Snack", "Greek yoghurt and honey", 210], ["Dinner", "Salmon, rice and greens", 450]] }
};
