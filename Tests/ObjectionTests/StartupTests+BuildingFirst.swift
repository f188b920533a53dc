import ObjectionTesting
import Testing

@testable import Objection

/// `start(within:buildingFirst:named:then:)`: what the eager singletons need is built, and run by
/// the host, inside the start — its deadline and its startup event — before they are built.
extension StartupTests {
    static func clientFirst(_ log: Log, clientRuns: Gate) -> TestModule {
        TestModule { binder in
            binder.bind(Client.self).to { _ in
                log.append("client built")
                return Client()
            }.asSingleton()
            binder.bind(Schema.self).to { r in
                _ = try await r.get(Client.self)
                // A query answers only once the host has run the client.
                try await Self.query(clientRuns)
                log.append("schema built")
                return Schema()
            }.asEagerSingleton()
        }
    }

    @Test("the first step builds its value inside the startup, the host runs it, then the eager singletons build")
    func buildingFirstOrder() async throws {
        let log = Log()
        let clientRuns = Gate()
        let observer = RecordingObserver()
        let injector = try await InjectorActor(
            modules: [Self.clientFirst(log, clientRuns: clientRuns)],
            startup: .deferred,
            observer: observer
        )
        try await withDeadline {
            try await injector.start(within: nil, buildingFirst: Client.self) { client in
                #expect(client != nil)
                log.append("client runs")
                clientRuns.open()
            }
        }
        #expect(log.values == ["client built", "client runs", "schema built"])
        // One startup, the parent of the first step's construction as of the singletons'.
        let startups = observer.startups
        #expect(startups.count == 2 && startups.first?.hasSuffix(" 1") == true)
        let startupID = observer.events.compactMap { event -> ObservedConstruction.ID? in
            if case .startupStarted(let id, _) = event { id } else { nil }
        }.first
        let client = observer.startedConstructions.first { $0.key == BindingKey(Client.self) }
        #expect(client?.parentID == startupID)
        // Started: a later start builds nothing, and the singletons are there.
        _ = try await injector.get(Schema.self)
        #expect(log.values.count == 3)
        await injector.shutdown(within: nil)
    }

    @Test("a first step that never gets its value running is cut at the deadline, naming what it was building")
    func buildingFirstDeadline() async throws {
        let log = Log()
        let never = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Client.self).to { _ in
                        try await Self.query(never)
                        return Client()
                    }.asSingleton()
                    binder.bind(Schema.self).to(Schema.init).asEagerSingleton()
                }
            ],
            startup: .deferred
        )
        let stuckBuilding = await injectionError {
            try await withDeadline {
                try await injector.start(within: deadlineAfterTheWork, buildingFirst: Client.self) { _ in
                    log.append("ran")
                }
            }
        }
        #expect(stuckBuilding?.code == .timedOut)
        #expect(stuckBuilding?.description.contains("'Client'") == true)
        #expect(log.values.isEmpty)

        // The host's run never returns (its services never start): the deadline names the key.
        let neverRuns = Gate()
        let stuckRunning = await injectionError {
            try await withDeadline {
                try await injector.start(within: deadlineAfterTheWork, buildingFirst: Schema.self) { _ in
                    try await Self.query(neverRuns)
                }
            }
        }
        #expect(stuckRunning?.code == .timedOut)
        #expect(stuckRunning?.problems.map(\.path) == [[BindingKey(Schema.self)]])
        await injector.shutdown(within: nil)
    }

    @Test("an unbound first value is handed on as nil; the host's error ends the start unchanged")
    func buildingFirstUnboundAndFailing() async throws {
        struct HostFailure: Error {}
        let built = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        built.increment()
                        return Schema()
                    }.asEagerSingleton()
                }
            ],
            startup: .deferred
        )
        await #expect(throws: HostFailure.self) {
            try await injector.start(buildingFirst: Client.self, named: "primary") { client in
                #expect(client == nil)
                throw HostFailure()
            }
        }
        #expect(built.value == 0)
        try await injector.start(buildingFirst: Client.self, named: "primary") { _ in }
        #expect(built.value == 1)
        await injector.shutdown(within: nil)
    }
}
