// Starts the app (the module named by `data-entry`, with the modules it imports in `data-preload` and
// their stylesheets in `data-styles`, put there at build time) once the browser has painted the page's
// splash: nothing of the app is asked for before, and the entry runs once the stylesheets are in. A
// setTimeout from an animation frame runs after that frame is drawn. A page opened in a background tab
// draws no frames, and starts at once. A file rather than an inline script: the server's CSP allows
// scripts from 'self' only.
(() => {
  const script = document.currentScript;
  const entry = script.getAttribute('data-entry');
  // What the entry imports, asked for together with it rather than once the entry has arrived.
  const preloads = (script.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  const styles = (script.getAttribute('data-styles') || '').split(' ').filter(Boolean);
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
    // Ahead of the page's own stylesheet, which overrides some of antd's rules.
    const first = document.querySelector('link[rel="stylesheet"]');
    const sheets = styles.map(
      (href) =>
        new Promise((resolve, reject) => {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = href;
          link.onload = resolve;
          link.onerror = reject;
          document.head.insertBefore(link, first);
        }),
    );
    Promise.all(sheets)
      .then(() => import(entry))
      .catch(failed);
  };
  try {
    // A visitor who chose English: the site's English name (from the branding the server wrote into the
    // page) and the page's language, from the first paint rather than once the app has run.
    const english = JSON.parse(localStorage.getItem('language') || 'null') === 'en-US';
    const siteName = document.querySelector('.boot-name');
    if (english) {
      document.documentElement.lang = 'en';
      const config = JSON.parse(document.getElementById('host-config')?.textContent || 'null');
      if (config?.siteNameEn && siteName) {
        siteName.textContent = config.siteNameEn;
        document.title = config.siteNameEn;
      }
    }
    // A signed-in visit to the home page: the user's greeting from the session kept by the last visit,
    // drawn with the splash instead of seconds later with the app (the words of `home.greeting`).
    const token = localStorage.getItem('token');
    const user = JSON.parse(localStorage.getItem('userInfo') || 'null');
    const path = location.pathname;
    const splash = document.querySelector('.boot-splash');
    if (token && user?.name && splash && (path === '/' || path === '/home')) {
      const greeting = document.createElement('p');
      greeting.className = 'boot-greeting';
      greeting.textContent = english ? `Hello, ${user.name}` : `您好,${user.name}`;
      splash.appendChild(greeting);
    }
  } catch {
    // Nothing kept, or kept by another version: the splash as it is.
  }
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start, 0));
})();
