"""The HTTP layer: Flask app factory, schemas, problem+json errors. Views stay thin."""
from .app import create_app

__all__ = ["create_app"]
