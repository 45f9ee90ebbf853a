/* The details page's names of the raw page's metric ids: Nsight Compute
 * 2025.3.1's default sections, from `ncu --csv --page details` and the same
 * with `--print-metric-name name` on one launch (tests/fixtures/ncu/
 * SOURCE.md), paired row by row. Sorted by id, then section. */
#include "import/ncu_labels.h"

#include <stddef.h>
#include <string.h>

static const struct ncu_label labels[] = {
	{"dram__cycles_active.avg", "GPU and Memory Workload Distribution",
	 "Average DRAM Active Cycles"},
	{"dram__cycles_elapsed.avg.per_second", "GPU Speed Of Light Throughput",
	 "DRAM Frequency"},
	{"dram__cycles_elapsed.sum", "GPU and Memory Workload Distribution",
	 "Total DRAM Elapsed Cycles"},
	{"gpc__cycles_elapsed.avg.per_second", "GPU Speed Of Light Throughput",
	 "SM Frequency"},
	{"gpc__cycles_elapsed.max", "GPU Speed Of Light Throughput",
	 "Elapsed Cycles"},
	{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
	 "GPU Speed Of Light Throughput", "Memory Throughput"},
	{"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
	 "GPU Speed Of Light Throughput", "DRAM Throughput"},
	{"gpu__time_duration.sum", "GPU Speed Of Light Throughput", "Duration"},
	{"l1tex__cycles_active.avg", "GPU and Memory Workload Distribution",
	 "Average L1 Active Cycles"},
	{"l1tex__cycles_elapsed.sum", "GPU and Memory Workload Distribution",
	 "Total L1 Elapsed Cycles"},
	{"l1tex__throughput.avg.pct_of_peak_sustained_active",
	 "GPU Speed Of Light Throughput", "L1/TEX Cache Throughput"},
	{"launch__block_size", "Launch Statistics", "Block Size"},
	{"launch__cluster_max_active", "Occupancy", "Max Active Clusters"},
	{"launch__cluster_max_potential_size", "Occupancy", "Max Cluster Size"},
	{"launch__cluster_scheduling_policy", "Launch Statistics",
	 "Cluster Scheduling Policy"},
	{"launch__cluster_size", "Launch Statistics", "Cluster Size"},
	{"launch__func_cache_config", "Launch Statistics",
	 "Function Cache Configuration"},
	{"launch__grid_size", "Launch Statistics", "Grid Size"},
	{"launch__occupancy_cluster_gpu_pct", "Occupancy",
	 "Overall GPU Occupancy"},
	{"launch__occupancy_cluster_pct", "Occupancy", "Cluster Occupancy"},
	{"launch__occupancy_limit_barriers", "Occupancy",
	 "Block Limit Barriers"},
	{"launch__occupancy_limit_blocks", "Occupancy", "Block Limit SM"},
	{"launch__occupancy_limit_registers", "Occupancy",
	 "Block Limit Registers"},
	{"launch__occupancy_limit_shared_mem", "Occupancy",
	 "Block Limit Shared Mem"},
	{"launch__occupancy_limit_warps", "Occupancy", "Block Limit Warps"},
	{"launch__registers_per_thread", "Launch Statistics",
	 "Registers Per Thread"},
	{"launch__shared_mem_config_size", "Launch Statistics",
	 "Shared Memory Configuration Size"},
	{"launch__shared_mem_per_block_driver", "Launch Statistics",
	 "Driver Shared Memory Per Block"},
	{"launch__shared_mem_per_block_dynamic", "Launch Statistics",
	 "Dynamic Shared Memory Per Block"},
	{"launch__shared_mem_per_block_static", "Launch Statistics",
	 "Static Shared Memory Per Block"},
	{"launch__sm_count", "Launch Statistics", "# SMs"},
	{"launch__stack_size", "Launch Statistics", "Stack Size"},
	{"launch__thread_count", "Launch Statistics", "Threads"},
	{"launch__tpc_count", "Launch Statistics", "# TPCs"},
	{"launch__tpc_enabled", "Launch Statistics", "Enabled TPC IDs"},
	{"launch__uses_green_context", "Launch Statistics",
	 "Uses Green Context"},
	{"launch__waves_per_multiprocessor", "Launch Statistics",
	 "Waves Per SM"},
	{"lts__cycles_active.avg", "GPU and Memory Workload Distribution",
	 "Average L2 Active Cycles"},
	{"lts__cycles_elapsed.sum", "GPU and Memory Workload Distribution",
	 "Total L2 Elapsed Cycles"},
	{"lts__throughput.avg.pct_of_peak_sustained_elapsed",
	 "GPU Speed Of Light Throughput", "L2 Cache Throughput"},
	{"sm__cycles_active.avg", "GPU Speed Of Light Throughput",
	 "SM Active Cycles"},
	{"sm__cycles_active.avg", "GPU and Memory Workload Distribution",
	 "Average SM Active Cycles"},
	{"sm__cycles_elapsed.sum", "GPU and Memory Workload Distribution",
	 "Total SM Elapsed Cycles"},
	{"sm__maximum_warps_avg_per_active_cycle", "Occupancy",
	 "Theoretical Active Warps per SM"},
	{"sm__maximum_warps_per_active_cycle_pct", "Occupancy",
	 "Theoretical Occupancy"},
	{"sm__throughput.avg.pct_of_peak_sustained_elapsed",
	 "GPU Speed Of Light Throughput", "Compute (SM) Throughput"},
	{"sm__warps_active.avg.pct_of_peak_sustained_active", "Occupancy",
	 "Achieved Occupancy"},
	{"sm__warps_active.avg.per_cycle_active", "Occupancy",
	 "Achieved Active Warps Per SM"},
	{"smsp__cycles_active.avg", "GPU and Memory Workload Distribution",
	 "Average SMSP Active Cycles"},
	{"smsp__cycles_elapsed.sum", "GPU and Memory Workload Distribution",
	 "Total SMSP Elapsed Cycles"},
};

const struct ncu_label *ncu_label_next(const char *id,
				       const struct ncu_label *after)
{
	size_t n = sizeof(labels) / sizeof(labels[0]);
	size_t i = after ? (size_t)(after - labels) + 1 : 0;

	for (; i < n; i++)
		if (!strcmp(labels[i].id, id))
			return &labels[i];
	return NULL;
}
