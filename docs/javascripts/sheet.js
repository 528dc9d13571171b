// A printed rule sheet names the full rules by their address: paper has no links. The link's
// absolute address is known only in the reader's browser (the site may be served anywhere), so it is
// written here into data-address, which the print style shows after the link.
document.querySelectorAll("a.bt-address").forEach(function (link) {
  link.setAttribute("data-address", link.href);
});
