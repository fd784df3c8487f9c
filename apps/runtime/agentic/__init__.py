"""The agentic loop: how an executor uses a model without handing it control, its
vocabulary, and the mapping from its outcome to the executor's result.
"""
