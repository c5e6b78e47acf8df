// The API's page (/docs): Swagger UI, from files the package ships, on the schema the
// server publishes. A file of its own: the page's content security policy allows no
// inline script.
/* global SwaggerUIBundle */
window.addEventListener("DOMContentLoaded", () => {
  SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#api",
    deepLinking: true,
    tryItOutEnabled: false,
    validatorUrl: null, // never asks another site to check the schema
  });
});
