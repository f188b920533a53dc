import Testing

@testable import Objection

@Suite("Decorators")
struct DecoratorTests {
    protocol Greeter: Sendable {
        func greet() -> String
    }

    struct Plain: Greeter {
        func greet() -> String { "hello" }
    }

    struct Loud: Greeter {
        let inner: any Greeter
        func greet() -> String { inner.greet().uppercased() }
    }

    struct Excited: Greeter {
        let inner: any Greeter
        func greet() -> String { inner.greet() + "!" }
    }

    @Test("decorators wrap a binding in module order, keeping its scope")
    func wrapsInOrder() async throws {
        let built = Counter()
        let injector = try await InjectorActor(modules: [
            TestModule { binder in
                binder.bind((any Greeter).self).to { _ in
                    built.increment(); return Plain()
                }.asSingleton()
                binder.decorate((any Greeter).self) { _, greeter in Loud(inner: greeter) }
            },
            TestModule { $0.decorate((any Greeter).self) { _, greeter in Excited(inner: greeter) } },
        ])
        #expect(try await injector.get((any Greeter).self).greet() == "HELLO!")
        _ = try await injector.get((any Greeter).self)
        #expect(built.value == 1)
    }

    @Test("a decorator resolves its own dependencies")
    func decoratorDependencies() async throws {
        struct Prefixed: Greeter {
            let inner: any Greeter
            let prefix: String
            func greet() -> String { prefix + inner.greet() }
        }
        let injector = try await makeInjector { binder in
            binder.bind(String.self).toInstance("> ")
            binder.bind((any Greeter).self).toInstance(Plain())
            binder.decorate((any Greeter).self) { r, greeter in try await Prefixed(inner: greeter, prefix: r.get()) }
        }
        #expect(try await injector.get((any Greeter).self).greet() == "> hello")
    }

    @Test("decorating an unbound key is a configuration error")
    func unboundKey() async throws {
        let error = await injectionError {
            _ = try await makeInjector { $0.decorate((any Greeter).self) { _, greeter in greeter } }
        }
        #expect(error?.problems.first?.message == "'Greeter' is decorated, but this injector's modules do not bind it")
    }
}
