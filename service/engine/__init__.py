"""The pure rules engine: geometry, map graph, state, actions, rules and derived values.

No web framework, schema library, cache or I/O here: plain data and functions. The one entry point a
caller needs is :func:`service.engine.referee.adjudicate`.
"""
