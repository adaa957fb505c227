package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** A new person registering to buy and sell: one in every 50 events. */
@DefaultCoder(Person.PersonCoder.class)
public record Person(
    long id,
    String name,
    String emailAddress,
    String creditCard,
    String city,
    String state,
    long dateTime)
    implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(1);
    h = Fingerprint.add(h, id);
    h = Fingerprint.add(h, name);
    h = Fingerprint.add(h, emailAddress);
    h = Fingerprint.add(h, creditCard);
    h = Fingerprint.add(h, city);
    h = Fingerprint.add(h, state);
    return Fingerprint.add(h, dateTime);
  }

  /** The Beam coder of {@link Person}. */
  public static final class PersonCoder extends FieldCoder<Person> {
    private static final PersonCoder INSTANCE = new PersonCoder();

    public static PersonCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(Person.class), INSTANCE);
    }

    @Override
    public void encode(Person p, OutputStream out) throws IOException {
      writeLong(p.id, out);
      writeString(p.name, out);
      writeString(p.emailAddress, out);
      writeString(p.creditCard, out);
      writeString(p.city, out);
      writeString(p.state, out);
      writeLong(p.dateTime, out);
    }

    @Override
    public Person decode(InputStream in) throws IOException {
      return new Person(
          readLong(in),
          readString(in),
          readString(in),
          readString(in),
          readString(in),
          readString(in),
          readLong(in));
    }
  }
}
