import os
import torch
import torch.nn as nn
import torch.optim as optim
import torch.distributed as dist
from torch.utils.data import Dataset, DataLoader
from torch.utils.data.distributed import DistributedSampler

# ====================== 1. 定义简�的数�集和模� ======================
class SimpleDataset(Dataset):
    """简�的数�集：输入是�机数，标�是输入的2�（简��归任务）"""
    def __init__(self, size=100):
        self.data = torch.randn(size, 1)  # 输入：(size, 1)
        self.labels = self.data * 2 + 0.1 * torch.randn_like(self.data)  # 标�：2x + 噪声

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return self.data[idx], self.labels[idx]

class SimpleModel(nn.Module):
    """简�的线性模�：y = wx + b"""
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.linear = nn.Linear(1, 1)

    def forward(self, x):
        return self.linear(x)

# ====================== 2. �始化分布�进程组 ======================
def init_distributed():
    """
    �始化分布��境（CPU + gloo�端）

    Kubeflow Trainer 会自动设置以下�境��：
    - RANK: 全局进程��（由 torchrun 设置）
    - WORLD_SIZE: 总进程数（由 torchrun 设置）
    - LOCAL_RANK: 节点内进程��（由 torchrun 设置）
    - MASTER_ADDR: 主节点地�（由 torchrun 设置）
    - MASTER_PORT: 主节点端�（由 torchrun 设置）
    """
    # ��境�����分布��练�数（torchrun 设置的标准�境��）
    rank = int(os.environ.get("RANK", 0))
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    
    print(f"[�始化] RANK={rank}, WORLD_SIZE={world_size}, LOCAL_RANK={local_rank}")
    print(f"[�始化] MASTER_ADDR={os.environ.get('MASTER_ADDR', 'N/A')}")
    print(f"[�始化] MASTER_PORT={os.environ.get('MASTER_PORT', 'N/A')}")
    
    # �始化分布�进程组
    # 使用 gloo �端（CPU专用），自动��境��读��置
    dist.init_process_group(backend="gloo")
    
    print(f"[�始化完�] �功�始化分布�进程组")

    return rank, world_size, local_rank

# ====================== 3. 核心�练函数 ======================
def train():
    print("=" * 60)
    print("开始 PyTorch 分布��练（Kubeflow Trainer 版本）")
    print("=" * 60)
    
    # �始化分布��境
    rank, world_size, local_rank = init_distributed()

    # 设置当�进程的设备（CPU）
    device = torch.device("cpu")

    # 1. �建数�集和分布�采样器（核心：将数�分�给��进程）
    dataset = SimpleDataset(size=100)
    # DistributedSampler：����进程读���的数�分片
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
    dataloader = DataLoader(
        dataset,
        batch_size=10,
        sampler=sampler,  # 必须用分布�采样器，替代shuffle
        num_workers=0  # 简化demo，关�多线程
    )

    # 2. �建模�并包装为分布�数�并行（DDP）
    model = SimpleModel()
    # DDP：自动处��数���梯度��
    model = nn.parallel.DistributedDataParallel(model, device_ids=None)  # CPU�练，device_ids设为None

    # 3. 定义�失函数和优化器
    criterion = nn.MSELoss()
    optimizer = optim.SGD(model.parameters(), lr=0.01)

    # 4. �练循�
    epochs = 5
    print(f"\n[Rank {rank}] 开始�练，共 {epochs} 个 epoch")
    print("-" * 60)
    
    for epoch in range(epochs):
        # �个epoch开始�，更新采样器的epoch（��分布�数�打乱的一致性）
        sampler.set_epoch(epoch)
        model.train()
        total_loss = 0.0

        for batch_idx, (data, labels) in enumerate(dataloader):
            # 将数�移动到设备
            data, labels = data.to(device), labels.to(device)
            
            # ��传�
            outputs = model(data)
            loss = criterion(outputs, labels)

            # ��传�和优化
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            total_loss += loss.item()

        # �在主进程（rank=0）打��练信�
        if rank == 0:
            avg_loss = total_loss / len(dataloader)
            print(f"Epoch [{epoch+1}/{epochs}], Average Loss: {avg_loss:.4f}")

    print("-" * 60)
    print(f"[Rank {rank}] �练完��")
    
    # 在主进程打�最终的模��数
    if rank == 0:
        print("\n" + "=" * 60)
        print("最终模��数:")
        for name, param in model.named_parameters():
            print(f"  {name}: {param.data}")
        print("=" * 60)

    # 清�分布�进程组
    dist.destroy_process_group()
    print(f"[Rank {rank}] 进程组已销�")

if __name__ == "__main__":
    train()
