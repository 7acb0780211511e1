// The shape's word in the page's language, from the scripts' catalogue (static/i18n.js).
document.getElementById("round").title = _("round");
