// The API explorer (/api/docs, api/explorer.py): Swagger UI over this server's
// OpenAPI document. The page names the document and Swagger UI's settings in data-
// attributes, so that it needs no inline script under the Content-Security-Policy.
const root = document.getElementById("swagger-ui");
window.ui = window.SwaggerUIBundle({
  ...JSON.parse(root.dataset.config),
  url: root.dataset.spec,
  domNode: root,
});
