# Run as the browser kernel's PYTHONSTARTUP (the static site sets it): see ksched_edu.browser.
# It binds no name in the learner's namespace (no docstring either), and does nothing outside the browser.
__import__("ksched_edu.browser", fromlist=["start"]).start()
