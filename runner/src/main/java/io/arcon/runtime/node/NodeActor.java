package io.arcon.runtime.node;

import io.arcon.runtime.epoch.EpochCoordinator;
import io.arcon.runtime.epoch.EpochMessages;
import io.arcon.runtime.epoch.EpochParticipation;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.JobMonitor;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.job.StartGate;
import io.arcon.runtime.job.SynchronizedTimeTracker;
import io.arcon.runtime.messages.RuntimeMessage;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.output.MessageSink;
import io.arcon.runtime.node.time.SynchronizedTime;
import io.arcon.runtime.observe.JobStats;
import io.arcon.runtime.observe.NodeStats;
import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Props;

/**
 * Runs one {@link NodeTask} as a Pekko actor: turns the messages in its mailbox into calls on the
 * task, and the task's requests (messages to itself and to other nodes, start, end) into Pekko
 * operations. All the node's logic is in the task and its parts.
 */
public final class NodeActor extends AbstractActor {

  /**
   * Wiring handed to a node at creation: actor refs of every downstream instance, the job's start
   * gate, its synchronized-time tracker (null when the job does not track it), its epoch
   * coordinator (null without checkpointing) and the job's live figures.
   */
  public record Wiring(
      Map<Integer, ActorRef[]> instancesByVertexId,
      StartGate startGate,
      SynchronizedTimeTracker syncTime,
      EpochCoordinator epochs,
      JobStats stats) {}

  private final Vertex vertex;
  private final int instance;
  private final RuntimeConfig config;
  private final Environment env;
  private NodeTask task;

  public static Props props(
      Vertex vertex, int instance, RuntimeConfig config, JobMonitor monitor, Wiring wiring) {
    return Props.create(
        NodeActor.class, () -> new NodeActor(vertex, instance, config, monitor, wiring));
  }

  private NodeActor(
      Vertex vertex, int instance, RuntimeConfig config, JobMonitor monitor, Wiring wiring) {
    this.vertex = vertex;
    this.instance = instance;
    this.config = config;
    this.env = new Environment(monitor, wiring);
  }

  @Override
  public void preStart() {
    try {
      SynchronizedTimeTracker tracker = env.wiring.syncTime();
      task =
          new NodeTask(
              vertex,
              instance,
              config,
              env,
              tracker == null
                  ? SynchronizedTime.untracked()
                  : SynchronizedTime.tracked(tracker, vertex.id()),
              NodeActivity.of(config.activity(), getSelf()));
    } catch (Throwable t) {
      // No task reports for this instance: its figures must not read as still starting.
      env.stats().ended(NodeStats.Status.FAILED);
      env.failed(t);
      return;
    }
    task.setUp();
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        // Lambdas, not method references: the task exists only from preStart on, after this runs.
        .match(RuntimeMessage.Credit.class, credit -> task.onCredit(credit))
        .match(RuntimeMessage.class, m -> task.onInput(m, sinkOf(getSender())))
        .match(NodeSignal.class, signal -> task.onSignal(signal))
        .match(MailboxTask.class, mailboxTask -> task.runTask(mailboxTask.task()))
        .match(EpochMessages.Trigger.class, trigger -> task.onEpochTrigger(trigger.epoch()))
        .match(EpochMessages.Completed.class, done -> task.onEpochCompleted(done.epoch()))
        .build();
  }

  @Override
  public void postStop() {
    if (task != null) {
      task.close();
    }
  }

  private MessageSink sinkOf(ActorRef receiver) {
    ActorRef self = getSelf();
    return message -> receiver.tell(message, self);
  }

  /** A task for the node's mailbox (from another thread, through the operator context). */
  private record MailboxTask(Runnable task) {}

  /** The task's requests, carried out on this actor. */
  private final class Environment implements NodeEnvironment {
    private final JobMonitor monitor;
    private final Wiring wiring;

    Environment(JobMonitor monitor, Wiring wiring) {
      this.monitor = monitor;
      this.wiring = wiring;
    }

    @Override
    public MessageSink of(Vertex vertex, int instance) {
      return sinkOf(wiring.instancesByVertexId().get(vertex.id())[instance]);
    }

    @Override
    public void signalSelf(NodeSignal signal) {
      getSelf().tell(signal, ActorRef.noSender());
    }

    @Override
    public void signalSelfLater(NodeSignal signal, long delayMillis) {
      getContext()
          .getSystem()
          .scheduler()
          .scheduleOnce(
              Duration.ofMillis(delayMillis),
              getSelf(),
              signal,
              getContext().getDispatcher(),
              ActorRef.noSender());
    }

    @Override
    public void runInMailbox(Runnable task) {
      getSelf().tell(new MailboxTask(task), ActorRef.noSender());
    }

    @Override
    public void ready() {
      wiring.startGate().ready(getSelf());
    }

    @Override
    public EpochParticipation epochs() {
      return wiring.epochs();
    }

    @Override
    public NodeStats stats() {
      return wiring.stats().node(vertex.id(), instance);
    }

    @Override
    public void finished() {
      if (wiring.epochs() != null) {
        wiring.epochs().nodeFinished(vertex.id(), instance);
      }
      monitor.nodeFinished();
      getContext().stop(getSelf());
    }

    @Override
    public void failed(Throwable cause) {
      monitor.nodeFailed(cause);
      getContext().stop(getSelf());
    }
  }
}
