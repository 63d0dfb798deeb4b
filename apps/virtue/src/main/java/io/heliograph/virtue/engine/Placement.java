package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Which PM each VM of a {@link PlacementProblem} is on. Immutable. */
public final class Placement {

    private final PlacementProblem problem;
    private final int[] pmOf;

    Placement(PlacementProblem problem, int[] pmOf) {
        this.problem = problem;
        this.pmOf = pmOf.clone();
    }

    /** The PM a VM is on. */
    public String pmOf(String vm) {
        return problem.pmIds[pmOf[problem.vmIndex(vm)]];
    }

    /** The VMs on a PM, in the EDF's order of VMs. */
    public List<String> vmsOn(String pm) {
        int p = problem.pmIndex(pm);
        List<String> vms = new ArrayList<>();
        for (int v = 0; v < pmOf.length; v++) {
            if (pmOf[v] == p) {
                vms.add(problem.vmIds[v]);
            }
        }
        return vms;
    }

    /** PM id by VM id, in the EDF's order of VMs. */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        for (int v = 0; v < pmOf.length; v++) {
            map.put(problem.vmIds[v], problem.pmIds[pmOf[v]]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** The PM number of VM number {@code vm}. */
    int pm(int vm) {
        return pmOf[vm];
    }

    int[] assignment() {
        return pmOf.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Placement that && that.problem == problem && Arrays.equals(that.pmOf, pmOf);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(pmOf);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
