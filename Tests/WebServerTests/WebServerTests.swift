import Testing

/// Every test that starts a server, one at a time.
///
/// NB: lws 4.1.6 closes its cancel eventfd twice in `lws_context_destroy` (seen with strace);
/// a descriptor another thread opens between the two closes is lost. Tests that run servers
/// in parallel with clients opening sockets on other threads would fail now and then.
@Suite(.serialized) struct WebServerTests {}
