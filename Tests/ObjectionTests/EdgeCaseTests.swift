import Testing

@testable import Objection

/// Cases found in review: each once crashed, hung or misbehaved.
@Suite("Edge cases of binding and resolution", .hangLimit)
struct EdgeCaseTests {
    final class WidgetFactory: Sendable {
        let resolver: Resolver
        init(resolver: Resolver) { self.resolver = resolver }
        func make() async throws -> Widget { try await resolver.get(Widget.self) }
    }

    final class Widget: Sendable {
        let factory: WidgetFactory
        init(factory: WidgetFactory) { self.factory = factory }
    }

    @Test("a subclass metatype passed as its superclass's names the superclass, and never crashes")
    func subclassMetatypes() async throws {
        let vehicle: Vehicle.Type = Truck.self
        let injector = try await makeInjector { binder in
            binder.bind(vehicle).to { _ in Vehicle() }
        }
        #expect(!(try await injector.get(vehicle) is Truck))
        #expect(try await injector.get(Vehicle.self) !== (try await injector.get(Vehicle.self)))
        let error = await injectionError { _ = try await injector.get(Truck.self) }
        #expect(error?.code == .missingBinding)
    }

    @Test(
        "a closure without parameters that calls the injector directly is a cycle, not a hang",
        arguments: [Scope.transient, .singleton]
    )
    func parameterlessClosureCycle(scope: Scope) async throws {
        let box = InjectorBox()
        box.injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { try await box.get(NodeA.self) }.inScope(scope)
        }
        let error = await injectionError { _ = try await box.get(NodeA.self) }
        #expect(error?.code == .circularDependency)
        box.injector = nil
    }

    /// How the factory's provider runs: without suspending (a transient of that kind has no step
    /// of its own), suspending first (a step that has ended by the time the resolver is used), or
    /// as a singleton (a step inside a construction).
    enum KeptResolverProvider: CaseIterable, Sendable {
        case synchronous, suspending, singleton
    }

    @Test(
        "a closure that passes its resolver on is a provider, and a kept resolver starts a new path",
        arguments: KeptResolverProvider.allCases
    )
    func resolverPassedOn(provider: KeptResolverProvider) async throws {
        let injector = try await makeInjector { binder in
            switch provider {
            case .synchronous:
                binder.bind(WidgetFactory.self).to { r in WidgetFactory(resolver: r) }
            case .suspending:
                binder.bind(WidgetFactory.self).to { r in
                    await Task.yield()
                    return WidgetFactory(resolver: r)
                }
            case .singleton:
                binder.bind(WidgetFactory.self).to { r in WidgetFactory(resolver: r) }.asSingleton()
            }
            binder.bind(Widget.self).to(Widget.init)
        }
        let factory = try await injector.get(WidgetFactory.self)
        // Widget needs a WidgetFactory: on the old path that would be a cycle.
        let widget = try await factory.make()
        #expect((widget.factory === factory) == (provider == .singleton))
        // A singleton that keeps its resolver keeps the injector: shutting down empties the cell.
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("the depth limit also holds for graphs built without suspending")
    func depthLimitOnSynchronousGraphs() async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Engine.self).to(Engine.init)
                    binder.bind(Wheel.self).to(Wheel.init)
                    binder.bind(Car.self).to(Car.init)
                }
            ],
            maxResolutionDepth: 1
        )
        _ = try await injector.get(Engine.self)
        let error = await injectionError { _ = try await injector.get(Car.self) }
        #expect(error?.code == .depthLimitExceeded)
    }

    @Test("a transient that needs itself is a cycle")
    func transientSelfDependency() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in try await r.get(NodeA.self) }
        }
        let error = await injectionError { _ = try await injector.get(NodeA.self) }
        #expect(error?.description == "Circular dependency: NodeA -> NodeA")
    }

    @Test("autowiring handles many parameters, synchronous or async throwing")
    func manyParameters() async throws {
        struct Dashboard: Sendable {
            let engine: Engine
            let wheel: Wheel
            let config: Config
            let lights: Headlight
        }
        @Sendable func assemble(engine: Engine, wheel: Wheel, config: Config) async throws -> Car {
            await Task.yield()
            guard !config.dsn.isEmpty else { throw ProviderFailure(attempt: 0) }
            return Car(engine: engine, wheel: wheel)
        }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Config.self).toInstance(Config(dsn: "x"))
            binder.bind(Headlight.self).to { _ in Headlight(side: .right) }
            binder.bind(Dashboard.self).to(Dashboard.init)
            binder.bind(Car.self).to(assemble)
        }
        let dashboard = try await injector.get(Dashboard.self)
        #expect(dashboard.engine === (try await injector.get(Car.self)).engine)
        #expect(dashboard.lights.side == .right && dashboard.config == Config(dsn: "x"))
    }

    @Test("a named alias to an unbound key is refused at creation")
    func selfAlias() async throws {
        let error = await injectionError {
            _ = try await makeInjector { $0.bind(Engine.self, named: "x").to(Engine.self) }
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
