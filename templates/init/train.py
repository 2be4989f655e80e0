# A small data-parallel PyTorch job: learns y = 2x from noisy samples on every worker
# torchrun starts, averaging gradients over gloo. Replace it with your own training.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"rank {rank} of {world}, master {os.environ.get('MASTER_ADDR')}:"
          f"{os.environ.get('MASTER_PORT')}", flush=True)
    torch.manual_seed(0)
    x = torch.randn(100, 1)
    data = TensorDataset(x, 2 * x + 0.1 * torch.randn_like(x))
    sampler = DistributedSampler(data, shuffle=True, seed=0)
    loader = DataLoader(data, batch_size=10, sampler=sampler)
    model = DistributedDataParallel(torch.nn.Linear(1, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(5):
        sampler.set_epoch(epoch)
        total = 0.0
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(inputs), targets)
            loss.backward()
            optimizer.step()
            total += loss.item()
        if rank == 0:
            print(f"epoch {epoch}: loss {total / len(loader):.4f}", flush=True)
    if rank == 0:
        weight, bias = model.module.weight.item(), model.module.bias.item()
        print(f"learned w={weight:.3f} b={bias:.3f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
