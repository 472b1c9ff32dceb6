// Starts the app (the module named by `data-entry`, put there at build time) once the browser has
// painted the page's splash: a setTimeout from an animation frame runs after that frame is drawn. A
// page opened in a background tab draws no frames, and starts at once. A file rather than an inline
// script: the server's CSP allows scripts from 'self' only.
(() => {
  var entry = document.currentScript.getAttribute('data-entry');
  // A network that drops the app's scripts would leave the splash up for good: say so, in both languages.
  function failed() {
    var notice = document.createElement('p');
    notice.setAttribute('role', 'alert');
    notice.style.cssText = 'position:fixed;left:0;right:0;bottom:15%;text-align:center;color:#595959';
    notice.textContent = '门户加载失败,请刷新页面重试。The portal could not load; please reload the page.';
    document.body.appendChild(notice);
  }
  function start() {
    import(entry).catch(failed);
  }
  if (document.visibilityState === 'hidden') start();
  else
    requestAnimationFrame(() => {
      setTimeout(start, 0);
    });
})();
