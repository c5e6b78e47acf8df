"""The web table's routers, one per resource."""
