"""Qt widgets that render AgentEvents and collect the analyst's input."""
