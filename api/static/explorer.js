// The API explorer (/api/docs, api/explorer.py): Swagger UI over this server's
// OpenAPI document. The page names the document and Swagger UI's settings in data-
// attributes, so that it needs no inline script under the Content-Security-Policy.
{
  /** @typedef {{SwaggerUIBundle: (options: object) => unknown, ui?: unknown}} Swagger */
  const swagger = /** @type {Swagger} */ (/** @type {unknown} */ (window));
  const root = /** @type {HTMLElement} */ (document.getElementById("swagger-ui"));  // the page's
  swagger.ui = swagger.SwaggerUIBundle({
    ...JSON.parse(root.dataset.config ?? "{}"),
    url: root.dataset.spec,
    domNode: root,
  });
}
