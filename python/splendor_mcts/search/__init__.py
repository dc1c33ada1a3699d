"""Monte Carlo tree search from Python: ``analyze``, its parameters, defaults and results."""
