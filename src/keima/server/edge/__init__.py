"""The HTTP edge: what every request meets before and after the routes (the body limit, the security headers, the
Origin check), the one mapping of refusals to HTTP answers, the database out of reach as 503, and the browser UI's
files.
"""
