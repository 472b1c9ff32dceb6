/** Text made safe to put in HTML, in an element or an attribute's quotes. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
