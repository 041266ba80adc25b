"""Request and response models of the REST API, one module per router: strict at the boundary
(unknown fields, wrong types and malformed dates are 422s naming the field), separate from the
domain models, and a response model for every endpoint so /docs shows every shape."""
