"""Pictures of boards (pure functions; the engine never imports them)."""
