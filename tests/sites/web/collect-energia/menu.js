// The menu opens in place: its links are hidden until it is pressed.
const menuButton = document.getElementById('menu-button');
menuButton.addEventListener('click', () => {
  const menu = document.getElementById('menu');
  menu.hidden = !menu.hidden;
  menuButton.setAttribute('aria-expanded', String(!menu.hidden));
});
