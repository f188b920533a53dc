import Testing

@testable import Objection

@Suite("Runtime arguments")
struct RuntimeArgumentTests {
    struct ConfigurableCar: Sendable {
        let engine: Engine
        let make: String
        let model: String
    }

    static func injector() async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(ConfigurableCar.self)
                .to(arguments: String.self, String.self) { r, make, model in
                    try await ConfigurableCar(engine: r.get(Engine.self), make: make, model: model)
                }
                .defaults("VW", "Golf")
            binder.bind(Headlight.self).to(arguments: Int.self) { _, brightness in
                Headlight(side: brightness > 50 ? .left : .right)
            }
        }
    }

    @Test("arguments are passed to the provider along with injected dependencies")
    func passesArguments() async throws {
        let injector = try await Self.injector()
        let car = try await injector.get(ConfigurableCar.self, arguments: "VW", "Passat")
        #expect(car.make == "VW" && car.model == "Passat")
        #expect(car.engine === (try await injector.get(Engine.self)))
        let other = try await injector.get(ConfigurableCar.self, arguments: "Fiat", "Panda")
        #expect(other.model == "Panda")
    }

    @Test("the defaults are used when no arguments are passed")
    func defaults() async throws {
        let injector = try await Self.injector()
        let car = try await injector.get(ConfigurableCar.self)
        #expect(car.make == "VW" && car.model == "Golf")
    }

    @Test("a binding without defaults needs its arguments")
    func noDefaults() async throws {
        let injector = try await Self.injector()
        let error = await injectionError { _ = try await injector.get(Headlight.self) }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.message == "'Headlight' needs runtime arguments (Int) and has no defaults")
        #expect(try await injector.get(Headlight.self, arguments: 80).side == .left)
    }

    @Test("a wrong number or type of arguments throws, naming the types")
    func mismatches() async throws {
        let injector = try await Self.injector()
        let tooFew = await injectionError { _ = try await injector.get(ConfigurableCar.self, arguments: "VW") }
        #expect(tooFew?.code == .argumentMismatch)
        #expect(tooFew?.message == "'ConfigurableCar' takes runtime arguments (String, String), but was given (String)")
        let wrongType = await injectionError { _ = try await injector.get(ConfigurableCar.self, arguments: "VW", 7) }
        #expect(
            wrongType?.message
                == "'ConfigurableCar' takes runtime arguments (String, String), but was given (String, Int)")
        let unexpected = await injectionError { _ = try await injector.get(Engine.self, arguments: 1) }
        #expect(unexpected?.message == "'Engine' takes no runtime arguments, but was given (Int)")
    }

    @Test("factories and resolvers pass arguments through")
    func throughFactoriesAndResolvers() async throws {
        struct Garage: Sendable { let car: ConfigurableCar }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(ConfigurableCar.self).to(arguments: String.self, String.self) { r, make, model in
                try await ConfigurableCar(engine: r.get(Engine.self), make: make, model: model)
            }
            binder.bind(Garage.self).to { r in
                try await Garage(car: r.get(ConfigurableCar.self, arguments: "BMW", "i3"))
            }
        }
        let makeCar = try await injector.get(Factory<ConfigurableCar>.self)
        #expect(try await makeCar(arguments: "VW", "Up").model == "Up")
        #expect(try await injector.get(Garage.self).car.model == "i3")
    }

    @Test("a provider with runtime arguments fills its value's properties and awakes it through its resolver")
    func argumentsWithInjectedProperties() async throws {
        final class Car: PropertyInjectable, @unchecked Sendable {
            let model: String
            var engine: Engine?
            var awoken = 0
            init(model: String) { self.model = model }
            static var injectedProperties: [InjectedProperty] { [.property(\Car.engine)] }
            func awakeFromInjection() async throws { awoken += 1 }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Car.self).to(arguments: String.self) { r, model in
                try await r.injectDependencies(into: Car(model: model))
            }
        }
        let car = try await injector.get(Car.self, arguments: "Up")
        #expect(car.model == "Up")
        #expect(car.engine === (try await injector.get(Engine.self)))
        #expect(car.awoken == 1)
    }

    @Test("a property a provider fills through its resolver is resolved on the provider's path")
    func injectedPropertyOnThePath() async throws {
        final class Driver: PropertyInjectable, @unchecked Sendable {
            var car: Wheel?
            static var injectedProperties: [InjectedProperty] { [.property(\Driver.car)] }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Driver.self).to(arguments: Int.self) { r, _ in try await r.injectDependencies(into: Driver()) }
        }
        let error = await injectionError { _ = try await injector.get(Driver.self, arguments: 1) }
        #expect(error?.code == .missingBinding)
        #expect(error?.path == [BindingKey(Driver.self), BindingKey(Wheel.self)])
    }

    @Test("runtime arguments work with decorators; an argument closure's result is returned as built")
    func argumentsWithPropertiesAndDecorators() async throws {
        final class Tagged: PropertyInjectable, @unchecked Sendable {
            let tag: String
            var engine: Engine?
            init(tag: String) { self.tag = tag }
            static var injectedProperties: [InjectedProperty] { [.property(\Tagged.engine)] }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Tagged.self).to(arguments: String.self) { _, tag in Tagged(tag: tag) }.defaults("default")
            binder.bind(Headlight.self).to(arguments: Int.self) { _, _ in Headlight(side: .left) }
            binder.decorate(Headlight.self) { _, _ in Headlight(side: .right) }
        }
        let tagged = try await injector.get(Tagged.self, arguments: "given")
        #expect(tagged.tag == "given" && tagged.engine == nil)
        let defaulted = try await injector.get(Tagged.self)
        #expect(defaulted.tag == "default" && defaulted.engine == nil)
        #expect(try await injector.get(Headlight.self, arguments: 1).side == .right)
    }
}
