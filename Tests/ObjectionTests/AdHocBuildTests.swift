import Testing

@testable import Objection

/// A car configured at the call: Objection's `ConfigurableCar` of
/// `getObject:initializer:withArgumentList:`, with each shape of initializer.
private final class ConfiguredCar: Sendable {
    let make: String
    let model: String
    let year: Int
    let engine: Engine

    init(engine: Engine) {
        (make, model, year, self.engine) = ("", "", 0, engine)
    }

    init(model: String, engine: Engine) {
        (make, self.model, year, self.engine) = ("", model, 0, engine)
    }

    init(make: String, model: String, engine: Engine) {
        (self.make, self.model, year, self.engine) = (make, model, 0, engine)
    }

    init(make: String, model: String, year: Int, engine: Engine) {
        (self.make, self.model, self.year, self.engine) = (make, model, year, engine)
    }

    /// A factory function that suspends and can fail, with a dependency nothing binds.
    static func assemble(model: String, headlight: Headlight) async throws -> ConfiguredCar {
        await Task.yield()
        return ConfiguredCar(model: model, engine: Engine())
    }
}

/// Needs the singleton whose provider builds it: an ad-hoc build inside a construction.
private final class Dashboard: Sendable {
    init(car: ConfiguredCar, cockpit: Cockpit) {}
}

private final class Cockpit: Sendable {}

private struct AssemblyFailure: Error, Equatable {}

@Suite("Building through an initializer chosen at the call, with given and resolved arguments")
struct AdHocBuildTests {
    private func makeGarage() async throws -> InjectorActor {
        try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton()
            b.bind(Wheel.self).to(Wheel.init)
        }
    }

    @Test("the given arguments come first, the other parameters are resolved, for 0 to 3 given arguments")
    func givenThenResolved() async throws {
        let injector = try await makeGarage()
        let engine = try await injector.get(Engine.self)

        let plain = try await injector.build(ConfiguredCar.init(engine:))
        #expect(plain.engine === engine)
        let passat = try await injector.build(ConfiguredCar.init(model:engine:), given: "Passat")
        #expect(passat.model == "Passat" && passat.engine === engine)
        let vw = try await injector.build(ConfiguredCar.init(make:model:engine:), given: "VW", "Golf")
        #expect((vw.make, vw.model) == ("VW", "Golf") && vw.engine === engine)
        let dated = try await injector.build(ConfiguredCar.init(make:model:year:engine:), given: "VW", "Polo", 2024)
        #expect((dated.make, dated.model, dated.year) == ("VW", "Polo", 2024) && dated.engine === engine)
        // Transient: built for each call.
        #expect(try await injector.build(ConfiguredCar.init(engine:)) !== plain)
        // A closure capturing its arguments serves any number of them.
        let captured = try await injector.build { (engine: Engine, _: Wheel) in
            ConfiguredCar(model: "Up", engine: engine)
        }
        #expect(captured.model == "Up")
    }

    @Test("a parameter nothing binds is a missingBinding error naming the path through the built type")
    func missingParameter() async throws {
        let injector = try await makeGarage()
        let direct = await injectionError {
            _ = try await injector.build(ConfiguredCar.assemble(model:headlight:), given: "Passat")
        }
        #expect(direct?.code == .missingBinding)
        #expect(direct?.path == [BindingKey(ConfiguredCar.self), BindingKey(Headlight.self)])

        // Inside a provider, the path starts at the key being built.
        let box = InjectorBox()
        let nested = try await makeInjector { b in
            b.bind(Cockpit.self).to { _ in
                _ = try await box.injector?.build(ConfiguredCar.assemble(model:headlight:), given: "Up")
                return Cockpit()
            }
        }
        box.injector = nested
        defer { box.injector = nil }
        let error = await injectionError { _ = try await nested.get(Cockpit.self) }
        #expect(error?.path == [BindingKey(Cockpit.self), BindingKey(ConfiguredCar.self), BindingKey(Headlight.self)])
    }

    @Test("the function's own error reaches the caller unchanged")
    func functionErrorPassesThrough() async throws {
        let injector = try await makeGarage()
        let failing: @Sendable (String, Engine) async throws -> ConfiguredCar = { _, _ in throw AssemblyFailure() }
        await #expect(throws: AssemblyFailure()) { _ = try await injector.build(failing, given: "Passat") }
    }

    @Test("a request scope builds with the request's own values")
    func fromAScope() async throws {
        let injector = try await makeInjector { b in
            b.bind(RequestID.self).suppliedByScope()
        }
        let seen = try await injector.withScope(modules: [RequestModule(id: 7)]) { scope in
            try await scope.build { (id: RequestID) in id }
        }
        #expect(seen == RequestID(value: 7))
    }

    @Test("the object factory builds from the injector that made it, 0 to 3 given arguments")
    func fromTheObjectFactory() async throws {
        let injector = try await makeGarage()
        let engine = try await injector.get(Engine.self)
        let objects = try await injector.get(ObjectFactory.self)
        #expect(try await objects.build(ConfiguredCar.init(engine:)).engine === engine)
        #expect(try await objects.build(ConfiguredCar.init(model:engine:), given: "Passat").model == "Passat")
        #expect(try await objects.build(ConfiguredCar.init(make:model:engine:), given: "VW", "Golf").make == "VW")
        #expect(try await objects.build(ConfiguredCar.init(make:model:year:engine:), given: "VW", "Polo", 1).year == 1)
        let missing = await injectionError {
            _ = try await objects.build(ConfiguredCar.assemble(model:headlight:), given: "Passat")
        }
        #expect(missing?.path == [BindingKey(ConfiguredCar.self), BindingKey(Headlight.self)])
    }

    @Test("a built PropertyInjectable value gets its properties and its awake hook")
    func injectsProperties() async throws {
        let injector = try await makeGarage()
        let vehicle = try await injector.build { InjectedVehicle() }
        #expect(vehicle.engine === (try await injector.get(Engine.self)))
        #expect(vehicle.awakenings.value == 1)
    }

    @Test("a named parameter is resolved from its named binding")
    func namedParameter() async throws {
        let injector = try await makeInjector { b in
            b.bind(Headlight.self, named: LeftLight.name).toInstance(Headlight(side: .left))
            b.bind(Headlight.self, named: RightLight.name).toInstance(Headlight(side: .right))
        }
        let car = try await injector.build(NamedLightsCar.init(left:right:))
        #expect(car.left.side == .left && car.right.side == .right)
    }

    @Test("a build that needs the construction it runs inside is a cycle, not a hang")
    func cycleThroughABuild() async throws {
        let box = InjectorBox()
        let injector = try await makeInjector { b in
            b.bind(Cockpit.self).to { _ in
                let car = ConfiguredCar(engine: Engine())
                _ = try await box.injector?.build(Dashboard.init(car:cockpit:), given: car)
                return Cockpit()
            }.asSingleton()
        }
        box.injector = injector
        defer { box.injector = nil }
        let error = try await withDeadline {
            await injectionError { _ = try await injector.get(Cockpit.self) }
        }
        #expect(error?.code == .circularDependency)
        #expect(error?.path.contains(BindingKey(Dashboard.self)) == true, "\(error?.path ?? [])")
    }

    @Test("an injector that has shut down refuses to build")
    func afterShutdown() async throws {
        let injector = try await makeGarage()
        let objects = try await injector.get(ObjectFactory.self)
        await injector.shutdown(within: nil)
        let error = await injectionError { _ = try await injector.build { Wheel() } }
        #expect(error?.code == .shutDown)
        let fromFactory = await injectionError { _ = try await objects.build { Wheel() } }
        #expect(fromFactory?.code == .shutDown)
    }
}
