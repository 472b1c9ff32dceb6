// Starts the app (the module named by `data-entry`, put there at build time) once the browser has
// painted the page's splash: a setTimeout from an animation frame runs after that frame is drawn. A
// page opened in a background tab draws no frames, and starts at once. A file rather than an inline
// script: the server's CSP allows scripts from 'self' only.
(() => {
  var entry = document.currentScript.getAttribute('data-entry');
  function start() {
    import(entry);
  }
  if (document.visibilityState === 'hidden') start();
  else
    requestAnimationFrame(() => {
      setTimeout(start, 0);
    });
})();
