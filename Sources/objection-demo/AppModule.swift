import Objection

/// The demo's wiring: one module, the way a server would declare its graph.
struct AppModule: Module {
    let config: AppConfig

    func configure(_ binder: Binder) {
        binder.bind(RequestID.self).suppliedByScope()  // Bound by each request's RequestModule.
        binder.bind(AppConfig.self).toInstance(config)
        binder.bind((any Database).self)
            .to { r in try await SimulatedPostgres.connect(config: r.get(AppConfig.self)) }
            .asSingleton()
        binder.bind(Metrics.self).to(Metrics.init).asEagerSingleton()
        binder.bind(UserRepository.self).to(UserRepository.init).asSingleton()
        binder.bind(OrderRepository.self).to(OrderRepository.init).asSingleton()
        binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped)
        binder.bind(PlaceOrderHandler.self).to(PlaceOrderHandler.init)
    }
}

/// Checkout, deliberately incomplete: nothing binds `any PaymentGateway`.
struct CheckoutModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(CheckoutService.self).to(CheckoutService.init)
        binder.bind(OrderService.self).to(OrderService.init)
    }
}

/// One request's own values, bound into its scope.
struct RequestModule: Module {
    let id: Int

    func configure(_ binder: Binder) {
        binder.bind(RequestID.self).toInstance(RequestID(value: id))
    }
}
