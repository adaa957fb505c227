package io.arcon.tss.server;

import io.arcon.tss.model.StateDescriptor;
import java.util.List;

/**
 * An app's Register, checked: a valid app name and uniquely, validly named states with complete
 * schemas (see {@link WireForms#registration}).
 *
 * @param instance the registering agent's id across its reconnects; "" when it sent none
 */
record Registration(String app, List<StateDescriptor> states, String instance) {
  Registration {
    states = List.copyOf(states);
    instance = instance == null ? "" : instance;
  }

  /** A registration without an instance id: never taken for a reconnect of a connected app. */
  Registration(String app, List<StateDescriptor> states) {
    this(app, states, "");
  }
}
