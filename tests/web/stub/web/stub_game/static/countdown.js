// The round's word in the page's language, from the scripts' catalogue (static/i18n.js).
const round = document.getElementById("round");
round.textContent = _("round") + " " + round.dataset.round;
