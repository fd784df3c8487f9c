"""Model tiers: models chosen by function, configured from the environment, and
the one OpenAI-compatible client every model request goes through.
"""
