import Testing

@testable import Objection

/// `depth` named `Int` keys, each `n` an alias of `n + 1`; the first is a singleton, so the captive
/// check starts its walk there.
struct SingletonHeadedChain: Module {
    let depth: Int
    var headIsSingleton = true

    func configure(_ binder: Binder) {
        for level in 0..<depth {
            guard level + 1 < depth else {
                binder.bind(Int.self, named: "\(level)").toInstance(level)
                continue
            }
            let alias = binder.bind(Int.self, named: "\(level)").to(Int.self, named: "\(level + 1)")
            if level == 0 && headIsSingleton { alias.asSingleton() }
        }
    }
}

/// Each test runs in its own process, so that a stack overflow fails the test instead of killing the run.
@Suite("Checking a deep chain without exhausting the stack, in a separate process", .timeLimit(.minutes(2)))
struct DeepChainCheckTests {
    @Test("control: the same chain with a transient head is accepted")
    func transientHeadedChainIsFine() async {
        await #expect(processExitsWith: .success) {
            _ = try await InjectorActor(modules: [SingletonHeadedChain(depth: 100_000, headIsSingleton: false)])
        }
    }

    @Test(
        "the captive check walks a chain of 100,000 declared dependencies under a singleton without exhausting the stack"
    )
    func captiveCheckDeepChainCrashes() async {
        // Run in its own process: before the captive walk was made iterative, this overflowed
        // the stack and killed the process.
        await #expect(processExitsWith: .success) {
            _ = try await InjectorActor(modules: [SingletonHeadedChain(depth: 100_000)])
        }
    }
}
