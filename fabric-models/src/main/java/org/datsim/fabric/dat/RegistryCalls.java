package org.datsim.fabric.dat;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;

/**
 * The simulator's DAT registry, one per host. The static registry lists the IA names of the host's HCA ports
 * ({@link DatHost#DEFAULT_IA_NAME} for its one port, as OFA's dat.conf names it); the dynamic registry holds the
 * IA names providers have registered. dat_ia_open of a name in the static registry that is not registered loads
 * the provider first (dat_provider_init), as the registry does for an auto-loaded provider.
 */
final class RegistryCalls extends ProviderPart {

    /** DAT_NAME_MAX_LENGTH, including the terminating null character. */
    static final int NAME_MAX_LENGTH = 256;

    RegistryCalls(ProviderCore core) {
        super(core);
    }

    /** Returns the static registry of a host: the IA names of its HCA ports. */
    List<String> staticRegistry(DatHost host) {
        return List.of(DatHost.DEFAULT_IA_NAME);
    }

    /**
     * dat_registry_list_providers: the entries of the static registry.
     *
     * @param host the calling host
     * @param maxToReturn max_to_return, the room in dat_provider_list
     * @param numberEntries receives number_entries: the entries returned, or on failure the entries there are
     * @param iaNames receives the IA names of the entries (on success)
     * @return DAT_SUCCESS, or DAT_INVALID_PARAMETER when dat_provider_list is too small
     */
    public int registryListProviders(DatHost host, int maxToReturn, Out<Integer> numberEntries,
            Out<List<String>> iaNames) {
        List<String> entries = staticRegistry(host);
        numberEntries.value = entries.size();
        if (maxToReturn < entries.size()) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG1);
        }
        iaNames.value = new ArrayList<>(entries);
        return DatReturn.SUCCESS;
    }

    /**
     * dat_registry_add_provider: declares an IA name in the host's dynamic registry.
     *
     * @param host the calling host
     * @param iaName provider_info.ia_name
     * @return DAT_SUCCESS; DAT_INVALID_PARAMETER (ARG2) for an empty name or one of DAT_NAME_MAX_LENGTH or more;
     *     DAT_PROVIDER_ALREADY_REGISTERED when the name is registered
     */
    public int registryAddProvider(DatHost host, String iaName) {
        if (iaName == null || iaName.isEmpty() || iaName.length() >= NAME_MAX_LENGTH) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (host.registered.contains(iaName)) {
            return err(DatReturn.PROVIDER_ALREADY_REGISTERED, 0);
        }
        host.registered.add(iaName);
        traceRegistry(host, "registered", iaName);
        return DatReturn.SUCCESS;
    }

    /**
     * dat_registry_remove_provider: removes an IA name from the host's dynamic registry.
     *
     * @param host the calling host
     * @param iaName provider_info.ia_name
     * @return DAT_SUCCESS; DAT_INVALID_PARAMETER (ARG2) when the name is not registered; DAT_PROVIDER_IN_USE
     *     while an IA opened by that name is open
     */
    public int registryRemoveProvider(DatHost host, String iaName) {
        if (iaName == null || !host.registered.contains(iaName)) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (openIas(host, iaName) > 0) {
            return err(DatReturn.PROVIDER_IN_USE, 0);
        }
        host.registered.remove(iaName);
        traceRegistry(host, "removed", iaName);
        return DatReturn.SUCCESS;
    }

    /**
     * dat_provider_init (a void function): the provider registers the IA name with the dynamic registry if it
     * serves it (a name of the static registry) and is not registered yet; otherwise it leaves no entry.
     *
     * @param host the calling host
     * @param iaName provider_info.ia_name
     * @return DAT_SUCCESS (the call has no return value)
     */
    public int providerInit(DatHost host, String iaName) {
        if (iaName != null && staticRegistry(host).contains(iaName) && !host.registered.contains(iaName)) {
            host.registered.add(iaName);
            traceRegistry(host, "provider_init", iaName);
        }
        return DatReturn.SUCCESS;
    }

    /**
     * dat_provider_fini (a void function): the provider removes the IA name from the dynamic registry, unless an
     * IA opened by it is still open.
     *
     * @param host the calling host
     * @param iaName provider_info.ia_name
     * @return DAT_SUCCESS (the call has no return value)
     */
    public int providerFini(DatHost host, String iaName) {
        if (iaName != null && host.registered.contains(iaName) && openIas(host, iaName) == 0) {
            host.registered.remove(iaName);
            traceRegistry(host, "provider_fini", iaName);
        }
        return DatReturn.SUCCESS;
    }

    /**
     * The registry's part of dat_ia_open: a registered name opens; a name of the static registry is loaded first.
     *
     * @return true if the name can be opened
     */
    boolean lookup(DatHost host, String iaName) {
        if (!host.registered.contains(iaName)) {
            providerInit(host, iaName);
        }
        return host.registered.contains(iaName);
    }

    private static int openIas(DatHost host, String iaName) {
        int n = 0;
        for (Ia ia : host.ias) {
            if (!ia.freed && ia.iaName.equals(iaName)) {
                n++;
            }
        }
        return n;
    }

    private void traceRegistry(DatHost host, String what, String iaName) {
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceKind.REGISTRY, host.name).attr(TraceKey.ACTION, what)
                    .attr(TraceKey.IA_NAME, iaName));
        }
    }
}
