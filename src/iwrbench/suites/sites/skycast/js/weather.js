/* Skycast's weather, made up but steady: every city's week is drawn from a small seeded generator
   (not Math.random) keyed on the city and the day, so the same city shows the same forecast on every
   visit. Temperatures follow the sun (coolest before dawn, warmest mid-afternoon), rain and cloud come
   in spells, and sunrise and sunset follow the city's latitude and the date. */
(function (root) {
  "use strict";
  var CITIES = [
    ["Bergen", "Norway", 60.39, 5.32, 2, 11, 4, 0.72, 18], ["Berlin", "Germany", 52.52, 13.4, 2, 15, 6, 0.35, 14],
    ["Bern", "Switzerland", 46.95, 7.45, 2, 13, 7, 0.45, 9], ["Bergamo", "Italy", 45.7, 9.67, 2, 18, 7, 0.4, 8],
    ["Porto", "Portugal", 41.15, -8.61, 1, 17, 5, 0.3, 16], ["Lyon", "France", 45.76, 4.84, 2, 17, 7, 0.35, 11],
    ["Edinburgh", "United Kingdom", 55.95, -3.19, 1, 11, 5, 0.5, 20], ["Reykjavík", "Iceland", 64.15, -21.94, 0, 7, 3, 0.5, 22],
    ["Tromsø", "Norway", 69.65, 18.96, 2, 4, 3, 0.5, 16], ["Hobart", "Australia", -42.88, 147.33, 10, 11, 5, 0.4, 15],
    ["Wellington", "New Zealand", -41.29, 174.78, 12, 12, 4, 0.45, 28], ["Calgary", "Canada", 51.05, -114.07, -6, 10, 9, 0.35, 15],
    ["Valparaíso", "Chile", -33.05, -71.62, -4, 14, 5, 0.25, 14], ["Kyoto", "Japan", 35.01, 135.77, 9, 20, 7, 0.4, 8],
    ["Cape Town", "South Africa", -33.92, 18.42, 2, 17, 6, 0.35, 20]
  ].map(function (c) {
    return { name: c[0], country: c[1], lat: c[2], lon: c[3], tz: c[4], mean: c[5], amp: c[6], wet: c[7], wind: c[8],
             slug: c[0].toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, "-") };
  });

  function hash(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return h >>> 0; }
  function gen(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  var DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

  // Sunrise and sunset in local hours for a day of the year (a textbook approximation).
  function sun(city, doy) {
    var decl = 23.44 * Math.sin(2 * Math.PI * (284 + doy) / 365) * Math.PI / 180, lat = city.lat * Math.PI / 180;
    var x = -Math.tan(lat) * Math.tan(decl);
    x = Math.max(-1, Math.min(1, x));
    var half = Math.acos(x) * 180 / Math.PI / 15;
    var noon = 12 - city.lon / 15 + city.tz;
    return { rise: noon - half, set: noon + half };
  }

  // Seven days of hourly weather from local midnight of the city's "today".
  function week(city, localMidnightMs, doy) {
    var days = [];
    var r = gen(hash(city.slug) ^ Math.floor(localMidnightMs / 864e5));
    var spell = r() * city.wet * 1.2, trend = (r() - 0.5) * 4;
    for (var d = 0; d < 7; d++) {
      var s = sun(city, doy + d), hours = [];
      trend += (r() - 0.5) * 3;
      spell = Math.max(0, Math.min(1, spell * 0.45 + (r() < city.wet ? 0.25 + r() * 0.6 : r() * 0.2)));
      var dayWind = city.wind * (0.6 + r() * 0.9), dir = Math.floor(r() * 8);
      for (var h = 0; h < 24; h++) {
        var phase = Math.cos((h - 15) / 24 * 2 * Math.PI);
        var cloud = Math.max(0, Math.min(100, spell * 100 + (r() - 0.5) * 30));
        var temp = city.mean + trend + city.amp * phase * (1 - cloud / 250) + (r() - 0.5) * 0.8;
        var rain = Math.max(0, Math.min(100, Math.round((spell * 110 - 35 + (r() - 0.5) * 40) / 5) * 5));
        var mm = rain > 40 ? +(((rain - 40) / 60) * 2.5 * r()).toFixed(1) : 0;
        var wind = Math.max(2, Math.round(dayWind * (0.75 + 0.35 * Math.sin((h - 9) / 24 * 2 * Math.PI)) + (r() - 0.5) * 4));
        hours.push({ h: h, temp: temp, feels: temp - wind / 12, rain: rain, mm: mm, cloud: cloud, wind: wind, gust: Math.round(wind * (1.4 + r() * 0.4)),
                     dir: DIRS[(dir + (r() < 0.2 ? 1 : 0)) % 8], humidity: Math.round(55 + spell * 35 + (r() - 0.5) * 10),
                     day: h >= s.rise && h < s.set });
      }
      var temps = hours.map(function (x) { return x.temp; });
      days.push({ hours: hours, hi: Math.max.apply(null, temps), lo: Math.min.apply(null, temps), rise: s.rise, set: s.set,
                  rain: Math.max.apply(null, hours.map(function (x) { return x.rain; })),
                  gust: Math.max.apply(null, hours.map(function (x) { return x.gust; })),
                  uv: Math.max(1, Math.round((9 - Math.abs(city.lat) / 9) * (1 - spell * 0.7))),
                  pressure: Math.round(1022 - spell * 22 + (r() - 0.5) * 6), aqi: Math.round(18 + r() * 40) });
    }
    return days;
  }

  function condition(x) {
    if (x.rain >= 70 && x.temp < 1) return "snow";
    if (x.rain >= 70 && x.mm >= 1.2) return "rain";
    if (x.rain >= 50) return "showers";
    if (x.cloud >= 75) return "cloudy";
    if (x.cloud >= 35) return "partly";
    return "clear";
  }
  var LABELS = { snow: "Snow", rain: "Rain", showers: "Light rain", cloudy: "Cloudy", partly: "Partly cloudy", clear: "Clear" };

  root.Skycast = { CITIES: CITIES, week: week, condition: condition, LABELS: LABELS };
})(window);
