import Testing

/// Every test that starts a server.
///
/// NB: they run in parallel: the descriptor lws 4.1.6 closes twice while a server stops is
/// closed on a table of the loop's own (`PrivateDescriptorTable`), not under another test's
/// feet (docs/WEBSERVER.md "Pitfalls").
@Suite struct WebServerTests {}
