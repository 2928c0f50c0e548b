"""Rule-module packages: one package per module (a scenario, an expansion), found and registered by
``scenarios.discover``. A package declares its scenarios in ``SCENARIOS``; see ``docs/architecture.md``."""
