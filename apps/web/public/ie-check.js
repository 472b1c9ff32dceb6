// Internet Explorer cannot run the portal (it ignores module scripts, so React never starts there): tell
// the user plainly (SPEC section 1). ES3 on purpose: no arrow functions, no `let`, no trailing commas in
// calls, no modern CSS. A file rather than an inline script: the server's CSP allows scripts from 'self'.
var ieNotice =
  '<div style="position:absolute;top:0;left:0;width:100%;height:100%;background:#fff;z-index:9999;' +
  "font-family:'Microsoft YaHei',sans-serif;text-align:center;padding-top:12%\">" +
  '<h2 style="color:#FF6D1F">温馨提示</h2>' +
  '<p>您的浏览器版本过低,无法正常使用本系统,请升级或更换为最新版的 Chrome、Edge 或 Firefox 浏览器。</p>' +
  '<p>Your browser is out of date and cannot run this portal. Please update to the latest Chrome, Edge or Firefox.</p>' +
  '</div>';
// Loaded with `defer` (it must not hold up the page's first paint), so the notice is added to the body.
if (/MSIE |Trident\//.test(window.navigator.userAgent))
  document.body.insertAdjacentHTML('beforeend', ieNotice);
