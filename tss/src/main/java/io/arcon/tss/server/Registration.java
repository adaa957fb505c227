package io.arcon.tss.server;

import io.arcon.tss.model.StateDescriptor;
import java.util.List;

/**
 * An app's Register, checked: a valid app name and uniquely, validly named states with complete
 * schemas (see {@link WireForms#registration}).
 */
record Registration(String app, List<StateDescriptor> states) {
  Registration {
    states = List.copyOf(states);
  }
}
