import Objection
import ServerFixtures
import Testing

@Suite("RequestWork and ScopeLedger", .timeLimit(.minutes(1)))
struct RequestWorkTests {
    struct WorkModule: Module {
        let ledger: ScopeLedger

        func configure(_ binder: Binder) {
            binder.bind(RequestWork.self)
                .to { [ledger] _ in RequestWork(serial: ledger.nextSerial(), label: "work", ledger: ledger) }
                .inScope(.scoped)
        }
    }

    struct UncommittableModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(UncommittableWork.self).to { _ in UncommittableWork() }.inScope(.scoped)
        }
    }

    struct HandlerFailed: Error {}

    @Test("One unit per scope; each disposal is recorded and streamed with the scope's outcome")
    func disposalsCarryTheOutcome() async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [WorkModule(ledger: ledger)])
        var streamed = ledger.disposals.makeAsyncIterator()

        let first = try await injector.openScope()
        let work = try await first.injector.get(RequestWork.self)
        #expect(try await first.injector.get(RequestWork.self) === work)
        #expect(work.state == "alive")
        try await first.end(.succeeded)
        #expect(work.state == "DISPOSED")
        #expect(await streamed.next()?.serial == 1)

        let second = try await injector.openScope()
        _ = try await second.injector.get(RequestWork.self)
        try? await second.end(.failed(HandlerFailed()))
        #expect(await streamed.next()?.error is HandlerFailed)

        #expect(ledger.built == 2)
        #expect(ledger.disposed.map(\.serial) == [1, 2])
        #expect(ledger.disposed.map(\.label) == ["work", "work"])
        #expect(ledger.disposed.first?.error == nil)
        #expect(await injector.shutdown() == nil)
    }

    @Test("UncommittableWork's disposal fails its scope's end")
    func uncommittable() async throws {
        let injector = try await InjectorActor(modules: [UncommittableModule()])
        let scope = try await injector.openScope()
        _ = try await scope.injector.get(UncommittableWork.self)
        let error = await #expect(throws: InjectionError.self) { try await scope.end(.succeeded) }
        #expect(error?.code == .disposalFailed)
        #expect(error?.problems.first?.underlying is UncommittableWork.CommitFailed)
        #expect(await injector.shutdown() == nil)
    }
}
