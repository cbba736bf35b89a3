
// The page of `monopoly-trade solve --html`: pointing at a player's card (or focusing it with
// the keyboard) dims the lots the player does not own. Names are read back from the
// data-player / data-owner attributes, never written into the page as code.
(function () {
  "use strict";
  var squares = document.querySelectorAll("#board .square[data-owner]");
  function show(name) {
    for (var i = 0; i < squares.length; i++) {
      var mine = name === null || squares[i].getAttribute("data-owner") === name;
      squares[i].classList.toggle("dim", !mine);
    }
  }
  var cards = document.querySelectorAll(".player[data-player]");
  for (var i = 0; i < cards.length; i++) {
    (function (card) {
      var name = card.getAttribute("data-player");
      card.addEventListener("mouseenter", function () { show(name); });
      card.addEventListener("mouseleave", function () { show(null); });
      card.addEventListener("focus", function () { show(name); });
      card.addEventListener("blur", function () { show(null); });
    })(cards[i]);
  }
  document.documentElement.setAttribute("data-ready", String(squares.length));
})();
