import BenchmarkSupport
import Objection
import Synchronization

/// A cold stampede whose provider waits, instead of sleeping, until every waiter has started:
/// under callgrind, which runs one thread at a time and many times slower, a 1 ms sleep would end
/// before most waiters asked, and they would count a cached hit instead of a wait.
struct GatedStampede: Module {
    let gate: Gate
    let constructions: Count

    func configure(_ binder: Binder) {
        binder.bind(Engine.self).to { [gate, constructions] _ in
            constructions.increment()
            await gate.opened()
            return Engine()
        }.asSingleton()
    }

    static func run(waiters: Int) async throws {
        let module = GatedStampede(gate: Gate(arrivals: waiters), constructions: Count())
        let injector = try await InjectorActor(modules: [module])
        try await inSeparateTasks(waiters) {
            module.gate.arrive()
            sink(try await injector.get(Engine.self))
        }
        guard module.constructions.value == 1 else { throw Failure(constructions: module.constructions.value) }
    }

    /// The same waiters awaiting one shared `Task`, gated alike.
    static func runSharedTask(waiters: Int) async throws {
        let gate = Gate(arrivals: waiters)
        let shared = Task {
            await gate.opened()
            return Engine()
        }
        try await inSeparateTasks(waiters) {
            gate.arrive()
            sink(await shared.value)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let constructions: Int
        var description: String { "a stampede constructed the singleton \(constructions) times" }
    }
}

/// Opens once `arrivals` tasks have arrived; a task that waits before then is resumed at that moment.
final class Gate: Sendable {
    private struct State {
        var arrived = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let arrivals: Int
    private let state = Mutex(State())

    init(arrivals: Int) { self.arrivals = arrivals }

    func arrive() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.arrived += 1
            guard state.arrived == arrivals else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once every arrival has happened. One task waits at a time.
    func opened() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if state.arrived >= arrivals { return true }
                state.waiter = waiter
                return false
            }
            if open { waiter.resume() }
        }
    }
}
