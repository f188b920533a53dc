import LinkShortener
import LoggingTestSupport
import TestSupport
import Testing

/// What the server records about its injector: the start-up as one trace, logged as a tree and
/// served on `/traces`; the metrics on `/metrics`, moved by each request's scoped constructions.
@Suite("Observability", .timeLimit(.minutes(2)))
struct ObservabilityTests {
    @Test("The start-up is one trace, its span above the client it runs first and the eager singletons")
    func startupTrace() async throws {
        try await TestServer.with { server in
            let spans = try #require(await server.observability.tracer.startup())
            let startup = try #require(spans.only { $0.operationName == "objection.startup" })
            #expect(startup.parentSpanID == nil)
            #expect(startup.attribute("objection.singletons") == "2")
            let below = spans.filter { $0.parentSpanID == startup.spanID }
            #expect(
                Set(below.map(\.operationName)) == [
                    "construct PostgresClient", "construct Metrics", "construct LinkDatabase",
                ])
            #expect(
                below.allSatisfy { $0.traceID == startup.traceID && $0.attribute("objection.scope") == "singleton" })
            #expect(below.allSatisfy { $0.startNanoseconds >= startup.startNanoseconds })
            #expect(below.allSatisfy { $0.endNanoseconds <= startup.endNanoseconds })
            // InjectorService's start builds the client, runs it, then builds the singletons that
            // query it: the client's construction is in the start-up, ended before theirs began.
            let client = try #require(spans.only { $0.operationName == "construct PostgresClient" })
            let database = try #require(spans.only { $0.operationName == "construct LinkDatabase" })
            #expect(client.endNanoseconds <= database.startNanoseconds)
            #expect(spans.count == 4)

            // Served as it was kept.
            let traces = try await server.send(.get, "/traces").decode(TracesResponse.self)
            #expect(traces.startup == spans.map(SpanResponse.init))

            // Logged as a tree: a heading, then one line per span, children indented below parents.
            let logged = server.tracing.all.map(\.message)
            #expect(logged.first == "Start-up trace: 4 spans in 1 traces")
            #expect(Array(logged.dropFirst()) == SpanTree(spans).lines)
            #expect(logged.contains { $0.hasPrefix("objection.startup ") && $0.hasSuffix(" singletons=2") })
            #expect(
                logged.contains {
                    $0.hasPrefix("  construct LinkDatabase ") && $0.hasSuffix(" key=LinkDatabase scope=singleton")
                })
        }
    }

    @Test("A request's scoped construction is the parent of the singleton it needed first")
    func dependencyNesting() async throws {
        try await TestServer.with { server in
            // The first request to build a RequestAudit builds the AuditLog it is given, below it.
            let reply = try await server.send(.get, "/links/unknown", user: "ivy")
            #expect(reply.status == 404)
            let recent = try await server.send(.get, "/traces").decode(TracesResponse.self).recent
            let audit = try #require(recent.only { $0.name == "construct RequestAudit" })
            let auditLog = try #require(recent.only { $0.name == "construct AuditLog" })
            let store = try #require(recent.only { $0.name == "construct PostgresLinkStore" })
            #expect(audit.scope == "scoped")
            #expect(auditLog.scope == "singleton")
            #expect(auditLog.parentSpanID == audit.spanID)
            #expect(auditLog.traceID == audit.traceID)
            // Nothing built them for another construction: each is a root (no request span here).
            #expect(audit.parentSpanID == nil)
            #expect(store.parentSpanID == nil)
        }
    }

    @Test("GET /metrics is Prometheus text with a timer per constructed key and the live-scopes gauge")
    func metricsEndpoint() async throws {
        try await TestServer.with { server in
            let reply = try await server.send(.get, "/metrics")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            let metrics = PrometheusText(reply.body)
            #expect(metrics.comments.contains("# TYPE objection_construction_duration histogram"))
            #expect(metrics.comments.contains("# TYPE objection_request_scopes_active gauge"))
            #expect(metrics.constructions(of: "LinkDatabase", scope: "singleton") == 1)
            #expect(metrics.constructions(of: "PostgresClient", scope: "singleton") == 1)
            #expect(metrics.samples["objection_request_scopes_active"] == 0)
        }
    }

    @Test("A request counts its scoped constructions, and its scopes while it runs; the hand-wired route counts none")
    func requestMovesMetrics() async throws {
        let gate = Gate()
        try await TestServer.with(modules: [ProbeModule.gatingLookups(at: gate)]) { server in
            let link = try await server.createLink("https://swift.org/metrics")
            let before = PrometheusText(try await server.send(.get, "/metrics").body)

            async let held = server.send(.get, "/links/\(link.code)", user: "jo")
            await gate.waitForArrivals(1)
            let during = PrometheusText(try await server.send(.get, "/metrics").body)
            // The request's scope and its transaction's, nested in it.
            #expect(during.samples["objection_request_scopes_active"] == 2)
            gate.open()
            #expect(try await held.status == 200)
            _ = try await server.send(.get, "/plain/links/\(link.code)", user: "jo")

            let after = PrometheusText(try await server.send(.get, "/metrics").body)
            #expect(after.samples["objection_request_scopes_active"] == 0)
            // One each: the `/links` request's. The `/plain` one builds the same objects by hand.
            for key in ["PostgresLinkStore", "RequestAudit"] {
                #expect(
                    after.constructions(of: key, scope: "scoped") - before.constructions(of: key, scope: "scoped") == 1)
            }
            // The singletons are built once, whatever the requests.
            #expect(after.constructions(of: "AuditLog", scope: "singleton") == 1)
        }
    }
}

extension Array {
    /// The one element that satisfies `predicate`; `nil` if none or several do.
    func only(where predicate: (Element) -> Bool) -> Element? {
        let matching = filter(predicate)
        return matching.count == 1 ? matching[0] : nil
    }
}
