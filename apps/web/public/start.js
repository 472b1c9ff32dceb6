// Starts the app (the module named by `data-entry`, with the modules it imports in `data-preload`, put
// there at build time) once the browser has painted the page's splash: nothing of the app is asked for
// before. A setTimeout from an animation frame runs after that frame is drawn. A page opened in a
// background tab draws no frames, and starts at once. A file rather than an inline script: the
// server's CSP allows scripts from 'self' only.
(() => {
  const script = document.currentScript;
  const entry = script.getAttribute('data-entry');
  // What the entry imports, asked for together with it rather than once the entry has arrived.
  const preloads = (script.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  // A network that drops the app's scripts would leave the splash up for good: say so, in both languages.
  const failed = () => {
    const notice = document.createElement('p');
    notice.setAttribute('role', 'alert');
    notice.style.cssText = 'position:fixed;left:0;right:0;bottom:15%;text-align:center;color:#595959';
    notice.textContent = '门户加载失败,请刷新页面重试。The portal could not load; please reload the page.';
    document.body.appendChild(notice);
  };
  const start = () => {
    for (const href of [entry, ...preloads]) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = 'anonymous';
      link.href = href;
      document.head.appendChild(link);
    }
    import(entry).catch(failed);
  };
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start, 0));
})();
