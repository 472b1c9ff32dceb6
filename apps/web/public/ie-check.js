// Internet Explorer cannot run the portal: tell the user plainly (SPEC section 1). Plain ES3 on purpose.
(() => {
  var ua = window.navigator.userAgent;
  if (ua.indexOf('MSIE ') === -1 && ua.indexOf('Trident/') === -1) return;
  document.write(
    '<div style="position:fixed;inset:0;background:#fff;z-index:9999;font-family:sans-serif;padding:15% 10%;text-align:center">' +
      '<h2>温馨提示</h2>' +
      '<p>您的浏览器版本过低,无法正常使用本系统,请升级或更换为最新版的 Chrome、Edge 或 Firefox 浏览器。</p>' +
      '<p>Your browser is out of date and cannot run this portal. Please update to the latest Chrome, Edge or Firefox.</p>' +
      '</div>',
  );
})();
